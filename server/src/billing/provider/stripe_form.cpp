// Stripe's form encoding with bracketed nested keys, and its decoding (see stripe_form.h).
#include "billing/provider/stripe_form.h"

#include "common/text.h"

#include <stdexcept>

namespace storefront::billing {

namespace {

std::string encodedKey(const std::vector<std::string>& path) {
    std::string key = common::encodeUriComponent(path.front());
    for (std::size_t i = 1; i < path.size(); ++i)
        key += "[" + common::encodeUriComponent(path[i]) + "]";
    return key;
}

int hexValue(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::string decodeComponent(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '+') {
            out += ' ';
        } else if (c == '%') {
            if (i + 2 >= text.size()) throw std::invalid_argument("form body has a broken percent escape");
            const int high = hexValue(text[i + 1]);
            const int low = hexValue(text[i + 2]);
            if (high < 0 || low < 0) throw std::invalid_argument("form body has a broken percent escape");
            out += static_cast<char>(high * 16 + low);
            i += 2;
        } else {
            out += c;
        }
    }
    return out;
}

} // namespace

FormBody& FormBody::add(std::initializer_list<std::string_view> path, std::string_view value) {
    return add(std::vector<std::string>(path.begin(), path.end()), value);
}

FormBody& FormBody::add(const std::vector<std::string>& path, std::string_view value) {
    if (path.empty() || path.front().empty()) throw std::invalid_argument("form field needs a name");
    fields_.push_back({path, std::string(value)});
    return *this;
}

FormBody& FormBody::addEach(std::initializer_list<std::string_view> path,
                            const std::map<std::string, std::string>& entries) {
    for (const auto& [key, value] : entries) {
        std::vector<std::string> full(path.begin(), path.end());
        full.push_back(key);
        add(full, value);
    }
    return *this;
}

std::vector<FormField> FormBody::fields() const {
    std::vector<FormField> out;
    out.reserve(fields_.size());
    for (const auto& field : fields_)
        out.emplace_back(bracketKey(field.path), field.value);
    return out;
}

std::string FormBody::encoded() const {
    std::string out;
    for (const auto& field : fields_) {
        if (!out.empty()) out += '&';
        out += encodedKey(field.path) + "=" + common::encodeUriComponent(field.value);
    }
    return out;
}

std::string bracketKey(const std::vector<std::string>& path) {
    if (path.empty()) return {};
    std::string key = path.front();
    for (std::size_t i = 1; i < path.size(); ++i)
        key += "[" + path[i] + "]";
    return key;
}

std::vector<FormField> decodeForm(std::string_view body) {
    std::vector<FormField> fields;
    std::size_t start = 0;
    while (start < body.size()) {
        auto amp = body.find('&', start);
        if (amp == std::string_view::npos) amp = body.size();
        const auto pair = body.substr(start, amp - start);
        start = amp + 1;
        if (pair.empty()) continue;
        const auto equals = pair.find('=');
        if (equals == std::string_view::npos)
            fields.emplace_back(decodeComponent(pair), std::string());
        else
            fields.emplace_back(decodeComponent(pair.substr(0, equals)), decodeComponent(pair.substr(equals + 1)));
    }
    return fields;
}

} // namespace storefront::billing
