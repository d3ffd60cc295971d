#pragma once
// Request bodies for Stripe's API: application/x-www-form-urlencoded with Stripe's bracket syntax
// for nested keys ("line_items[0][price_data][unit_amount]=600", "metadata[checkout_id]=...").
// Each key segment and each value is percent-encoded (everything but RFC 3986's unreserved
// characters); the brackets that give the structure are written literally, as Stripe's own
// libraries do, so a segment can never open a level of nesting by itself.
#include <initializer_list>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace storefront::billing {

// One decoded field: flat bracket key and value, e.g. {"metadata[user_id]", "u1"}.
using FormField = std::pair<std::string, std::string>;

class FormBody {
public:
    // Adds one field: add({"line_items", "0", "quantity"}, "1") is line_items[0][quantity]=1.
    FormBody& add(std::initializer_list<std::string_view> path, std::string_view value);
    FormBody& add(const std::vector<std::string>& path, std::string_view value);
    // Adds every entry as path[key]=value, in the map's order.
    FormBody& addEach(std::initializer_list<std::string_view> path, const std::map<std::string, std::string>& entries);

    // The fields as flat bracket keys, not encoded, in the order they were added.
    std::vector<FormField> fields() const;
    // The encoded body: "k=v&k=v".
    std::string encoded() const;
    bool empty() const { return fields_.empty(); }

private:
    struct Field {
        std::vector<std::string> path;
        std::string value;
    };
    std::vector<Field> fields_;
};

// "a", {"b", "c"} -> "a[b][c]" (not encoded).
std::string bracketKey(const std::vector<std::string>& path);

// Decodes a form body into fields, in order: '+' is a space, %XX a byte. Throws
// std::invalid_argument on a broken escape. A field without '=' has an empty value.
std::vector<FormField> decodeForm(std::string_view body);

} // namespace storefront::billing
