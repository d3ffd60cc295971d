// The mail composer (mail/wire.h): CRLF only, line lengths, RFC 2047 encoded-words that decode
// back to the text, Message-ID on the sender's domain, the MIME headers, dot-stuffing, and no
// header injection. server/tests/api/mail_wire_api_test.cpp sends every kind of mail through a
// real SMTP server and a strict parser.
#include "app/config.h"
#include "mail/kinds.h"
#include "mail/wire.h"

#include <Poco/AutoPtr.h>
#include <Poco/Base64Decoder.h>
#include <Poco/Util/MapConfiguration.h>
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <set>
#include <sstream>

namespace mail = storefront::mail;

namespace {

std::vector<std::string> linesOf(const std::string& wire) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < wire.size()) {
        auto end = wire.find("\r\n", start);
        if (end == std::string::npos) end = wire.size();
        lines.push_back(wire.substr(start, end - start));
        start = end + 2;
    }
    return lines;
}

// Every LF is preceded by CR and every CR followed by LF.
bool crlfOnly(const std::string& wire) {
    for (std::size_t i = 0; i < wire.size(); ++i) {
        if (wire[i] == '\n' && (i == 0 || wire[i - 1] != '\r')) return false;
        if (wire[i] == '\r' && (i + 1 == wire.size() || wire[i + 1] != '\n')) return false;
    }
    return true;
}

std::string headerBlock(const std::string& wire) { return wire.substr(0, wire.find("\r\n\r\n") + 2); }
std::string boundaryOf(const std::string& wire) {
    const auto at = wire.find("boundary=\"") + 10;
    return wire.substr(at, wire.find('"', at) - at);
}
// The encoded body of the part of `type` (text/plain or text/html): from its blank line to the
// CRLF that belongs to the next delimiter.
std::string partOf(const std::string& wire, const std::string& type) {
    const auto header = wire.find("\r\nContent-Type: " + type + ";");
    if (header == std::string::npos) return "<missing>";
    const auto start = wire.find("\r\n\r\n", header) + 4;
    return wire.substr(start, wire.find("\r\n--" + boundaryOf(wire), start) - start);
}
std::string bodyOf(const std::string& wire) { return partOf(wire, "text/plain"); }

// The unfolded value of header `name` in `headers` (each field ending in CRLF).
std::string rawValue(const std::string& headers, const std::string& name) {
    const std::string start = name + ":";
    for (std::size_t at = 0; at < headers.size();) {
        auto end = at;
        while (true) { // a field ends at a CRLF not followed by a blank
            end = headers.find("\r\n", end);
            if (end == std::string::npos || end + 2 >= headers.size() || (headers[end + 2] != ' ' && headers[end + 2] != '\t')) break;
            end += 2;
        }
        std::string field = headers.substr(at, end - at);
        if (field.compare(0, start.size(), start) == 0) {
            std::string value = field.substr(start.size());
            for (std::size_t crlf; (crlf = value.find("\r\n")) != std::string::npos;) value.erase(crlf, 2);
            return value.substr(value.find_first_not_of(' '));
        }
        if (end == std::string::npos) break;
        at = end + 2;
    }
    return "<missing>";
}

std::string base64Decode(const std::string& text) {
    std::istringstream in(text);
    Poco::Base64Decoder decoder(in);
    return std::string(std::istreambuf_iterator<char>(decoder), std::istreambuf_iterator<char>());
}

// RFC 2047 decoding of an unfolded value (B encoding, as the composer writes): blanks between
// adjacent encoded-words are dropped.
std::string decodeWords(const std::string& value) {
    static const std::regex word(R"(=\?UTF-8\?B\?([A-Za-z0-9+/=]*)\?=)");
    std::string out;
    auto it = std::sregex_iterator(value.begin(), value.end(), word);
    std::size_t last = 0;
    bool previousWasWord = false;
    for (; it != std::sregex_iterator(); ++it) {
        std::string between = value.substr(last, static_cast<std::size_t>(it->position()) - last);
        if (!(previousWasWord && between.find_first_not_of(' ') == std::string::npos)) out += between;
        out += base64Decode((*it)[1]);
        last = static_cast<std::size_t>(it->position() + it->length());
        previousWasWord = true;
    }
    return out + value.substr(last);
}

std::string decodeQuotedPrintable(const std::string& body) {
    std::string out;
    for (std::size_t i = 0; i < body.size(); ++i) {
        if (body[i] != '=') {
            out += body[i];
        } else if (body.compare(i + 1, 2, "\r\n") == 0) {
            i += 2;
        } else {
            out += static_cast<char>(std::stoi(body.substr(i + 1, 2), nullptr, 16));
            i += 2;
        }
    }
    std::string lf; // CRLF is the wire's line break; the text's is LF
    for (std::size_t i = 0; i < out.size(); ++i)
        if (!(out[i] == '\r' && i + 1 < out.size() && out[i + 1] == '\n')) lf += out[i];
    return lf;
}

mail::MailMessage sample() {
    mail::MailMessage m;
    m.kind = "order_confirmation";
    m.to = "customer@example.nz";
    m.subject = "Kia ora — Ōtautahi order ✓";
    m.text = "Thank you.\n\nTotal: NZ$49.00 (GST included)\n.\n.hidden line\nFrom here on\n";
    return m;
}

const std::string kFrom = "Signalcraft <no-reply@shop.signalcraft.nz>";
const mail::Branding kBrand{"Signalcraft", "Signalcraft Limited", "1 Queen Street, Auckland 1010", "https://shop.signalcraft.nz"};

std::string compose(const mail::MailMessage& m, const std::string& from = kFrom) {
    return mail::composeMessage(m, from, 1739480709, mail::newMessageId("shop.signalcraft.nz"), kBrand);
}

void expectLinesWithin(const std::string& wire, std::size_t headerMax, std::size_t bodyMax) {
    bool inBody = false;
    for (const auto& line : linesOf(wire)) {
        if (line.empty() && !inBody) {
            inBody = true;
            continue;
        }
        EXPECT_LE(line.size(), inBody ? bodyMax : headerMax) << (inBody ? "body" : "header") << " line: " << line;
    }
}

} // namespace

TEST(MailWire, EveryLineEndsInCrlfWhateverTheTextUses) {
    auto m = sample();
    m.text = "unix\nwindows\r\nold mac\rend";
    const auto wire = compose(m);
    EXPECT_TRUE(crlfOnly(wire)) << wire;
    EXPECT_EQ(decodeQuotedPrintable(bodyOf(wire)), "unix\nwindows\nold mac\nend");
    EXPECT_EQ(wire.substr(wire.size() - 2), "\r\n");
}

TEST(MailWire, HasEveryHeaderARelayExpects) {
    const auto wire = compose(sample());
    const auto headers = headerBlock(wire);
    EXPECT_EQ(rawValue(headers, "Date"), "Thu, 13 Feb 2025 21:05:09 +0000");
    EXPECT_EQ(rawValue(headers, "From"), kFrom);
    EXPECT_EQ(rawValue(headers, "To"), "customer@example.nz");
    EXPECT_EQ(rawValue(headers, "MIME-Version"), "1.0");
    EXPECT_TRUE(std::regex_match(rawValue(headers, "Content-Type"), std::regex(R"(multipart/alternative; boundary="=_alt_[0-9a-zA-Z]+")")))
        << rawValue(headers, "Content-Type");
    EXPECT_EQ(rawValue(headers, "Content-Transfer-Encoding"), "<missing>");
    EXPECT_EQ(rawValue(headers, "Reply-To"), "<missing>");
    EXPECT_TRUE(std::regex_match(rawValue(headers, "Message-ID"), std::regex(R"(<[0-9a-f]{32}@shop\.signalcraft\.nz>)")))
        << rawValue(headers, "Message-ID");
    auto withReply = sample();
    withReply.replyTo = "aroha@example.co.nz";
    EXPECT_EQ(rawValue(headerBlock(compose(withReply)), "Reply-To"), "aroha@example.co.nz");
}

TEST(MailWire, AStoredMailKeepsOneMessageIdMadeFromItsKey) {
    EXPECT_EQ(mail::messageIdFor("0f8e2c1a-4b6d-4e2f-9a1b-2c3d4e5f6a7b", "mail.example.nz"),
              "<0f8e2c1a4b6d4e2f9a1b2c3d4e5f6a7b@mail.example.nz>");
    EXPECT_EQ(mail::messageIdFor("0f8e2c1a-4b6d", "mail.example.nz"), mail::messageIdFor("0f8e2c1a-4b6d", "mail.example.nz"));
    // Nothing usable in the key (or no key): a random one, as for a mail that was never stored.
    EXPECT_TRUE(std::regex_match(mail::messageIdFor("<>@ \r\n", "mail.example.nz"), std::regex(R"(<[0-9a-f]{32}@mail\.example\.nz>)")));
    EXPECT_NE(mail::messageIdFor("", "mail.example.nz"), mail::messageIdFor("", "mail.example.nz"));
}

TEST(MailWire, MessageIdsAreRandomOnTheGivenDomain) {
    const auto a = mail::newMessageId("mail.example.nz"), b = mail::newMessageId("mail.example.nz");
    EXPECT_NE(a, b);
    EXPECT_TRUE(std::regex_match(a, std::regex(R"(<[0-9a-f]{32}@mail\.example\.nz>)"))) << a;
    EXPECT_EQ(mail::domainOf(mail::parseMailbox(kFrom).address), "shop.signalcraft.nz");
}

TEST(MailWire, DatesAreInTheRfc5322Form) {
    EXPECT_EQ(mail::rfc5322Date(0), "Thu, 01 Jan 1970 00:00:00 +0000");
    EXPECT_EQ(mail::rfc5322Date(951782400), "Tue, 29 Feb 2000 00:00:00 +0000");
    EXPECT_EQ(mail::rfc5322Date(1767225599), "Wed, 31 Dec 2025 23:59:59 +0000");
}

TEST(MailWire, ANonAsciiSubjectIsEncodedWordsThatDecodeBack) {
    const auto headers = headerBlock(compose(sample()));
    EXPECT_TRUE(std::all_of(headers.begin(), headers.end(), [](char c) { return (c >= 0x20 && c < 0x7f) || c == '\r' || c == '\n'; }))
        << "headers must be ASCII";
    const auto value = rawValue(headers, "Subject");
    EXPECT_EQ(value.rfind("=?UTF-8?B?", 0), 0u) << value;
    EXPECT_EQ(decodeWords(value), "Kia ora — Ōtautahi order ✓");
}

TEST(MailWire, ALongSubjectIsFoldedIntoShortEncodedWordsAndDecodesBack) {
    std::string subject;
    for (int i = 0; i < 12; ++i) subject += "Ōtautahi ✓ tēnā koe — ";
    subject += "end";
    auto m = sample();
    m.subject = subject;
    const auto wire = compose(m);
    expectLinesWithin(wire, 78, 76);
    const auto value = rawValue(headerBlock(wire), "Subject");
    EXPECT_EQ(decodeWords(value), subject);
    static const std::regex word(R"(=\?UTF-8\?B\?[A-Za-z0-9+/=]*\?=)");
    int words = 0;
    for (auto it = std::sregex_iterator(value.begin(), value.end(), word); it != std::sregex_iterator(); ++it, ++words)
        EXPECT_LE(it->length(), 75) << it->str();
    EXPECT_GT(words, 5);
    EXPECT_NE(headerBlock(wire).find("\r\n =?UTF-8?B?"), std::string::npos) << "folded";
}

TEST(MailWire, AnAsciiSubjectStaysReadableAndALongOneIsFoldedAtSpaces) {
    auto m = sample();
    m.subject = "Order SC-1001 confirmed";
    EXPECT_NE(compose(m).find("\r\nSubject: Order SC-1001 confirmed\r\n"), std::string::npos);
    std::string subject;
    for (int i = 0; i < 30; ++i) subject += "word" + std::to_string(i) + " ";
    subject += "last";
    m.subject = subject;
    const auto wire = compose(m);
    expectLinesWithin(wire, 78, 76);
    EXPECT_EQ(rawValue(headerBlock(wire), "Subject"), subject);
    EXPECT_EQ(rawValue(headerBlock(wire), "Subject").find("=?"), std::string::npos);
}

TEST(MailWire, AsciiThatLooksEncodedOrHasDoubleSpacesIsEncodedSoItReadsBackTheSame) {
    auto m = sample();
    for (const std::string subject : {"=?UTF-8?B?aGk=?= not really", "two  spaces", " leading", "trailing "}) {
        m.subject = subject;
        const auto value = rawValue(headerBlock(compose(m)), "Subject");
        EXPECT_EQ(value.rfind("=?UTF-8?B?", 0), 0u) << subject;
        EXPECT_EQ(decodeWords(value), subject);
    }
}

TEST(MailWire, DisplayNamesArePlainWhenTheyCanBeAndEncodedOtherwise) {
    const auto plain = headerBlock(compose(sample(), "Signalcraft Shop <no-reply@shop.signalcraft.nz>"));
    EXPECT_NE(plain.find("\r\nFrom: Signalcraft Shop <no-reply@shop.signalcraft.nz>\r\n"), std::string::npos) << plain;
    for (const std::string name : {"Ōtautahi Software", "Signalcraft, Ltd.", "Tāmaki Makaurau — a very long display name that must be folded over lines"}) {
        const auto headers = headerBlock(compose(sample(), "\"" + name + "\" <no-reply@shop.signalcraft.nz>"));
        const auto value = rawValue(headers, "From");
        EXPECT_EQ(value.rfind("=?UTF-8?B?", 0), 0u) << value;
        EXPECT_TRUE(value.ends_with(" <no-reply@shop.signalcraft.nz>")) << value;
        EXPECT_EQ(decodeWords(value.substr(0, value.rfind(" <"))), name);
        expectLinesWithin(headers, 78, 76);
    }
    const auto bare = headerBlock(compose(sample(), "no-reply@shop.signalcraft.nz"));
    EXPECT_NE(bare.find("\r\nFrom: no-reply@shop.signalcraft.nz\r\n"), std::string::npos) << bare;
}

TEST(MailWire, MailboxesAreParsedOrRefused) {
    EXPECT_EQ(mail::parseMailbox("a@b.nz").address, "a@b.nz");
    EXPECT_EQ(mail::parseMailbox("<a@b.nz>").address, "a@b.nz");
    auto named = mail::parseMailbox("  Shop Name  <a@b.nz>");
    EXPECT_EQ(named.displayName, "Shop Name");
    EXPECT_EQ(named.address, "a@b.nz");
    EXPECT_EQ(mail::parseMailbox(R"("Ōta, \"Ltd\"" <a@b.nz>)").displayName, "Ōta, \"Ltd\"");
    for (const std::string bad : {"Name <a@b.nz", "not an address", "", "ō@b.nz", "Name <a@b.nz>\r\nBcc: x@y.nz",
                                  "a@b.nz\nBcc: x@y.nz"})
        EXPECT_THROW(mail::parseMailbox(bad), std::invalid_argument) << bad;
}

TEST(MailWire, HeaderInjectionIsRefused) {
    auto m = sample();
    m.subject = "Hello\r\nBcc: everyone@example.com";
    EXPECT_THROW(compose(m), std::invalid_argument);
    m = sample();
    m.to = "customer@example.nz\r\nBcc: everyone@example.com";
    EXPECT_THROW(compose(m), std::invalid_argument);
    m = sample();
    m.replyTo = "x@example.nz\nBcc: everyone@example.com";
    EXPECT_THROW(compose(m), std::invalid_argument);
    EXPECT_THROW(compose(sample(), "Shop\r\nBcc: x@y.nz <a@b.nz>"), std::invalid_argument);
    EXPECT_THROW(mail::unstructuredHeader("Subject", std::string("a\0b", 3)), std::invalid_argument);
}

TEST(MailWire, TheBodyIsQuotedPrintableWithShortLinesAndDecodesToTheText) {
    auto m = sample();
    std::string longLine;
    for (int i = 0; i < 400; ++i) longLine += (i % 7 == 0) ? "ā" : "x";
    m.text = "a=b\ntrailing space \ttab\t\nFrom the start\n" + longLine + "\n" + std::string(5000, 'y') + "\nno newline at the end";
    const auto wire = compose(m);
    EXPECT_TRUE(crlfOnly(wire));
    expectLinesWithin(wire, 78, 76);
    const auto body = bodyOf(wire);
    EXPECT_NE(body.find("a=3Db\r\n"), std::string::npos) << body;
    EXPECT_NE(body.find("trailing space \ttab=09\r\n"), std::string::npos) << body;
    EXPECT_NE(body.find("\r\n=46rom the start\r\n"), std::string::npos) << body;
    EXPECT_NE(body.find("=C4=81"), std::string::npos);
    EXPECT_TRUE(std::all_of(body.begin(), body.end(), [](char c) { return (c >= 0x20 && c < 0x7f) || c == '\r' || c == '\n' || c == '\t'; }));
    EXPECT_EQ(decodeQuotedPrintable(body), m.text);
    m.text = sample().text;
    EXPECT_EQ(decodeQuotedPrintable(bodyOf(compose(m))), m.text);
}

TEST(MailWire, DotStuffingDoublesEveryLeadingDotAndEndsTheData) {
    EXPECT_EQ(mail::dotStuff("A: b\r\n\r\n.\r\n.hidden\r\nmid.dle\r\n"), "A: b\r\n\r\n..\r\n..hidden\r\nmid.dle\r\n.\r\n");
    EXPECT_EQ(mail::dotStuff(".first"), "..first\r\n.\r\n");
    EXPECT_EQ(mail::dotStuff(""), "\r\n.\r\n");
    const auto wire = compose(sample());
    const auto stuffed = mail::dotStuff(wire);
    EXPECT_NE(stuffed.find("\r\n..\r\n..hidden line\r\n"), std::string::npos) << stuffed;
    EXPECT_EQ(stuffed.substr(stuffed.size() - 5), "\r\n.\r\n");
}

TEST(MailWire, TheServerRefusesToStartWithASenderOrSalesAddressNoMessageCouldCarry) {
    auto load = [](std::map<std::string, std::string> env) {
        env["STOREFRONT_ENV"] = "development";
        Poco::AutoPtr<Poco::Util::MapConfiguration> props = new Poco::Util::MapConfiguration;
        return storefront::app::loadConfig(*props, [&](const std::string& k) -> std::optional<std::string> {
            auto it = env.find(k);
            if (it == env.end()) return std::nullopt;
            return it->second;
        }, "/srv/web");
    };
    EXPECT_EQ(load({{"STOREFRONT_MAIL_FROM", "Ōtautahi Shop <shop@example.nz>"}}).mail.from, "Ōtautahi Shop <shop@example.nz>");
    for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
             {"STOREFRONT_MAIL_FROM", "Shop <shop@example.nz"},
             {"STOREFRONT_MAIL_FROM", "shop"},
             {"STOREFRONT_MAIL_FROM", "Shop <shöp@example.nz>"},
             {"STOREFRONT_SALES_EMAIL", "sales at example.nz"}}) {
        try {
            load({{name, value}});
            ADD_FAILURE() << name << "=" << value << " was accepted";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find(name), std::string::npos) << e.what();
        }
    }
}

TEST(MailWire, TheBodyIsATextPartThenAnHtmlPartBetweenBoundariesNoPartCanContain) {
    const auto m = sample();
    const auto wire = compose(m);
    const auto boundary = boundaryOf(wire);
    ASSERT_EQ(boundary.rfind("=_", 0), 0u) << boundary;
    const auto body = wire.substr(wire.find("\r\n\r\n") + 4);
    // Two parts, in this order, and the closing delimiter last.
    EXPECT_EQ(body.find("--" + boundary + "\r\nContent-Type: text/plain; charset=UTF-8\r\n"
                        "Content-Transfer-Encoding: quoted-printable\r\n\r\n"), 0u) << body;
    const auto html = body.find("\r\n--" + boundary + "\r\nContent-Type: text/html; charset=UTF-8\r\n"
                                "Content-Transfer-Encoding: quoted-printable\r\n\r\n");
    EXPECT_NE(html, std::string::npos) << body;
    EXPECT_EQ(body.substr(body.size() - boundary.size() - 6), "--" + boundary + "--\r\n");
    EXPECT_EQ(decodeQuotedPrintable(bodyOf(wire)), m.text);
    EXPECT_EQ(decodeQuotedPrintable(partOf(wire, "text/html")), mail::renderHtml(m, kBrand));
    expectLinesWithin(wire, 78, 76);
    EXPECT_TRUE(crlfOnly(wire));
}

TEST(MailWire, TheHtmlPartEscapesEveryValueAndLinksExactlyTheTextsUrls) {
    mail::MailMessage m;
    m.kind = "auth_recovery";
    m.to = "a@example.nz";
    m.subject = "Reset <b>now</b>";
    m.text = "Hello <script>alert(1)</script> & \"friends\"\n\nhttps://shop.signalcraft.nz/auth/v1/verify?token=a&type=recovery\n\n"
             "Your orders: https://shop.signalcraft.nz/dashboard.\n";
    const auto html = mail::renderHtml(m, {"Sig<nal>", "Legal & Co", "1 \"Quoted\" Street", "https://shop.signalcraft.nz"});
    EXPECT_EQ(html.find("<script"), std::string::npos) << html;
    EXPECT_NE(html.find("Hello &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;friends&quot;"), std::string::npos) << html;
    EXPECT_NE(html.find("<title>Reset &lt;b&gt;now&lt;/b&gt;</title>"), std::string::npos);
    EXPECT_NE(html.find("Sig&lt;nal&gt;"), std::string::npos);
    EXPECT_NE(html.find("Legal &amp; Co<br>\n1 &quot;Quoted&quot; Street"), std::string::npos) << html;
    // The lone link is the template's button (and shown as text); the trailing full stop is not part of a URL.
    EXPECT_NE(html.find(">Choose a new password</a>"), std::string::npos);
    std::set<std::string> hrefs;
    static const std::regex href(R"re(href="([^"]*)")re");
    for (auto it = std::sregex_iterator(html.begin(), html.end(), href); it != std::sregex_iterator(); ++it) hrefs.insert((*it)[1]);
    EXPECT_EQ(hrefs, (std::set<std::string>{"https://shop.signalcraft.nz/auth/v1/verify?token=a&amp;type=recovery",
                                            "https://shop.signalcraft.nz/dashboard"}));
    // Inline styles only: no style sheet, no classes, no images, nothing fetched.
    for (const char* banned : {"<style", "class=", "<img", "<link", "<script", "src="}) EXPECT_EQ(html.find(banned), std::string::npos) << banned;
}

TEST(MailWire, EveryListedKindHasItsOwnHeadingAndAnUnlistedKindFallsBackToItsSubject) {
    std::set<std::string> kinds;
    for (const auto& t : mail::mailKinds()) {
        EXPECT_TRUE(kinds.insert(t.kind).second) << "listed twice: " << t.kind;
        EXPECT_FALSE(t.heading.empty()) << t.kind;
        mail::MailMessage m;
        m.kind = t.kind;
        m.subject = "Subject";
        m.text = "Text.\n";
        EXPECT_NE(mail::renderHtml(m, kBrand).find(">" + mail::escapeHtml(t.heading) + "</h1>"), std::string::npos) << t.kind;
    }
    EXPECT_EQ(mail::templateOf("not_a_kind", "The subject").heading, "The subject");
}
