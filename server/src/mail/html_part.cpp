#include "mail/html_part.h"

#include "mail/kinds.h"

#include <vector>

namespace storefront::mail {

namespace {

constexpr const char* kMailFont = "font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;";
constexpr const char* kMailInk = "#111827";
constexpr const char* kMailAccent = "#1d4ed8";

bool isUrlStart(std::string_view text, std::size_t at) {
    return text.compare(at, 8, "https://") == 0 || text.compare(at, 7, "http://") == 0;
}

// Where a URL that starts at `at` ends: the first blank, or a closing punctuation mark at its end.
std::size_t urlEnd(std::string_view text, std::size_t at) {
    std::size_t end = at;
    while (end < text.size() && text[end] != ' ' && text[end] != '\t') ++end;
    while (end > at && std::string_view(".,;:)!?\"'").find(text[end - 1]) != std::string_view::npos) --end;
    return end;
}

std::string htmlLink(std::string_view url) {
    return "<a href=\"" + escapeHtml(url) + "\" style=\"color:" + kMailAccent + ";word-break:break-all;\">" + escapeHtml(url) + "</a>";
}

// One line of text, escaped, with each URL a link to itself.
std::string inlineHtml(std::string_view line) {
    std::string out;
    std::size_t i = 0;
    while (i < line.size()) {
        if (isUrlStart(line, i)) {
            const auto end = urlEnd(line, i);
            out += htmlLink(line.substr(i, end - i));
            i = end;
            continue;
        }
        const auto next = std::min(line.find("http", i + 1), line.size());
        out += escapeHtml(line.substr(i, next - i));
        i = next;
    }
    return out;
}

std::vector<std::string> textLines(const std::string& text) {
    std::vector<std::string> lines;
    std::string line;
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '\r' || c == '\n') {
            if (c == '\r' && i + 1 < text.size() && text[i + 1] == '\n') ++i;
            lines.push_back(line);
            line.clear();
        } else {
            line += c;
        }
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

// The first character of `text` (a whole UTF-8 sequence): the logo's letter.
std::string firstCharacter(const std::string& text) {
    if (text.empty()) return {};
    std::size_t n = 1;
    while (n < text.size() && (static_cast<unsigned char>(text[n]) & 0xC0) == 0x80) ++n;
    return text.substr(0, n);
}

bool isLoneUrl(const std::string& line) { return isUrlStart(line, 0) && urlEnd(line, 0) == line.size(); }

// The text as HTML blocks: blank lines part paragraphs; a run of indented lines is a panel; the
// first URL alone on its line is a button (with the URL under it, for mail clients that hide
// buttons) when the template names one.
std::string htmlBody(const std::string& text, const std::string& action) {
    const auto lines = textLines(text);
    std::string out;
    bool buttonUsed = action.empty();
    std::string paragraph;
    auto flush = [&] {
        if (paragraph.empty()) return;
        out += "<p style=\"margin:0 0 16px 0;\">" + paragraph + "</p>\n";
        paragraph.clear();
    };
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const auto& line = lines[i];
        if (line.empty()) {
            flush();
            continue;
        }
        if (line.starts_with("  ")) {
            flush();
            out += std::string("<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" "
                               "style=\"margin:0 0 16px 0;background-color:#f3f4f6;border-radius:6px;\">\n");
            for (; i < lines.size() && lines[i].starts_with("  "); ++i)
                out += "<tr><td style=\"padding:6px 14px;\">" + inlineHtml(std::string_view(lines[i]).substr(2)) + "</td></tr>\n";
            --i;
            out += "</table>\n";
            continue;
        }
        if (!buttonUsed && isLoneUrl(line)) {
            flush();
            buttonUsed = true;
            out += std::string("<table role=\"presentation\" cellpadding=\"0\" cellspacing=\"0\" style=\"margin:8px 0 16px 0;\">"
                               "<tr><td style=\"border-radius:6px;background-color:") + kMailAccent + ";\">\n<a href=\"" +
                   escapeHtml(line) + "\" style=\"display:inline-block;padding:12px 22px;color:#ffffff;font-weight:600;"
                                      "text-decoration:none;\">" + escapeHtml(action) + "</a>\n</td></tr></table>\n" +
                   "<p style=\"margin:0 0 16px 0;font-size:13px;color:#4b5563;\">Or open this link:<br>\n" + htmlLink(line) + "</p>\n";
            continue;
        }
        if (!paragraph.empty()) paragraph += "<br>\n";
        paragraph += inlineHtml(line);
    }
    flush();
    return out;
}

} // namespace

std::string escapeHtml(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (char c : text) {
        switch (c) {
        case '&': out += "&amp;"; break;
        case '<': out += "&lt;"; break;
        case '>': out += "&gt;"; break;
        case '"': out += "&quot;"; break;
        case '\'': out += "&#39;"; break;
        default: out += c;
        }
    }
    return out;
}

std::string renderHtml(const MailMessage& message, const Branding& brand) {
    const auto t = templateOf(message.kind, message.subject);
    const std::string site = escapeHtml(brand.siteName);
    std::string footer = escapeHtml(brand.legalName.empty() ? brand.siteName : brand.legalName);
    if (!brand.address.empty()) footer += "<br>\n" + escapeHtml(brand.address);
    std::string out;
    out += "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
           "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n<title>" +
           escapeHtml(message.subject) + "</title>\n</head>\n";
    out += std::string("<body style=\"margin:0;padding:0;background-color:#f3f4f6;\">\n"
                       "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" "
                       "style=\"background-color:#f3f4f6;\"><tr><td align=\"center\" style=\"padding:24px 12px;\">\n"
                       "<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" "
                       "style=\"max-width:600px;background-color:#ffffff;border-radius:8px;\">\n"
                       "<tr><td style=\"padding:20px 32px;border-bottom:1px solid #e5e7eb;") + kMailFont +
           "font-size:20px;font-weight:700;color:" + kMailInk + ";\">\n<span style=\"display:inline-block;padding:2px 8px;"
           "margin-right:8px;border-radius:4px;background-color:" + kMailAccent + ";color:#ffffff;\">" +
           escapeHtml(firstCharacter(brand.siteName)) + "</span>" + site + "\n</td></tr>\n";
    out += std::string("<tr><td style=\"padding:28px 32px 12px 32px;") + kMailFont + "font-size:16px;line-height:1.5;color:" + kMailInk +
           ";\">\n<h1 style=\"margin:0 0 20px 0;font-size:22px;line-height:1.3;\">" + escapeHtml(t.heading) + "</h1>\n" +
           htmlBody(message.text, t.action) + "</td></tr>\n</table>\n";
    out += std::string("<table role=\"presentation\" width=\"100%\" cellpadding=\"0\" cellspacing=\"0\" style=\"max-width:600px;\">"
                       "<tr><td style=\"padding:16px 32px;") + kMailFont + "font-size:12px;line-height:1.5;color:#6b7280;\">\n" + footer +
           "\n</td></tr></table>\n</td></tr></table>\n</body>\n</html>\n";
    return out;
}

} // namespace storefront::mail
