#include "catalog/admin_routes.h"

#include "catalog/html_sanitizer.h"
#include "catalog/money.h"
#include "catalog/product_json.h"
#include "catalog/slug.h"
#include "common/text.h"
#include "http/api_error.h"
#include "http/body.h"
#include "http/paging.h"
#include "http/params.h"

#include <Poco/String.h>
#include <Poco/URI.h>

#include <set>

using storefront::http::ApiError;
using storefront::http::Body;
using storefront::http::ErrorKind;

namespace storefront::catalog {

namespace {

constexpr std::size_t kMaxNameChars = 200;
constexpr std::size_t kMaxKeywordsChars = 500;
constexpr std::size_t kMaxUrlChars = 2048;
constexpr std::size_t kMaxFeatures = 50;
constexpr std::size_t kMaxFeatureChars = 300;
constexpr std::size_t kMaxActionTypeChars = 50;
constexpr std::size_t kMaxPlanNameChars = 100;
constexpr std::int64_t kMaxStock = 1'000'000'000;
constexpr std::int64_t kMaxSortOrder = 1'000'000;

const std::set<std::string> kProductFields = {
    "name",      "slug",          "description", "description_detail", "meta_keywords", "type",
    "icon_url",  "picture_url",   "stock_quantity", "track_inventory", "is_active",     "features",
    "action_type", "action_url",  "show_pricing", "price_nzd",         "billing_interval"};
const std::set<std::string> kPlanFields = {"name", "price", "currency", "billing_frequency_value", "billing_frequency_unit",
                                           "sort_order", "trial_days"};

// An id from the path: lower case, 404 unless it is a UUID.

std::string productId(const http::Request& req) { return http::idParam(req, "product_not_found", "No such product.", "id"); }
std::string planId(const http::Request& req) { return http::idParam(req, "plan_not_found", "No such pricing plan.", "id"); }

bool hasControlOrSpace(const std::string& s) {
    for (unsigned char c : s)
        if (c <= 0x20 || c == 0x7F) return true;
    return false;
}

// Optional text, trimmed; empty becomes nullopt.
std::optional<std::string> optTrimmed(Body& b, const char* name, std::size_t maxChars) {
    auto v = b.optText(name);
    if (!v) return std::nullopt;
    auto t = Poco::trim(*v);
    if (t.empty()) return std::nullopt;
    if (common::codePoints(t) > maxChars) {
        b.fail(name, "Must be at most " + std::to_string(maxChars) + " characters.");
        return std::nullopt;
    }
    return t;
}

// A picture: a path on this site ("/products/hit/x.svg", "/uploads/<hash>.png") or an http(s) URL.
std::optional<std::string> imageUrl(Body& b, const char* name) {
    auto v = optTrimmed(b, name, kMaxUrlChars);
    if (!v) return std::nullopt;
    const bool sitePath = v->front() == '/' && !v->starts_with("//") && !v->starts_with("/\\");
    const bool web = v->starts_with("https://") || v->starts_with("http://");
    if ((!sitePath && !web) || hasControlOrSpace(*v)) {
        b.fail(name, "Use a path on this site (starting with /) or an http(s) URL.");
        return std::nullopt;
    }
    return v;
}

std::optional<std::string> httpUrl(Body& b, const char* name) {
    auto v = optTrimmed(b, name, kMaxUrlChars);
    if (!v) return std::nullopt;
    bool ok = (v->starts_with("https://") || v->starts_with("http://")) && !hasControlOrSpace(*v);
    if (ok) {
        try {
            ok = !Poco::URI(*v).getHost().empty();
        } catch (const Poco::Exception&) {
            ok = false;
        }
    }
    if (!ok) {
        b.fail(name, "Enter a full http:// or https:// URL.");
        return std::nullopt;
    }
    return v;
}

std::string richText(Body& b, const char* name) {
    auto v = b.optText(name);
    if (!v) return {};
    if (!richTextWithinLimits(*v)) {
        b.fail(name, "This text is too long (at most 256 KB and 10,000 tags).");
        return {};
    }
    return sanitizeRichText(*v);
}

std::optional<std::int64_t> boundedInteger(Body& b, const char* name, std::int64_t min, std::int64_t max,
                                           const std::string& rangeMessage) {
    auto v = b.optInteger(name);
    if (v && (*v < min || *v > max)) {
        b.fail(name, rangeMessage);
        return std::nullopt;
    }
    return v;
}

// A whole product from `b`, every field checked for form; absent fields take their defaults.
Product productFrom(Body& b) {
    Product p;
    p.name = b.requiredLine("name", kMaxNameChars);
    auto slug = b.optText("slug");
    if (!b.failed("slug")) {
        p.slug = normalizeSlug(slug.value_or(""));
        if (p.slug.empty()) b.fail("slug", "This field is required.");
        else if (!isValidSlug(p.slug))
            b.fail("slug", "Use lower-case letters, digits and hyphens (at most 100 characters, no hyphen at either end).");
    }
    p.description = richText(b, "description");
    if (b.has("description_detail")) {
        auto detail = richText(b, "description_detail");
        if (!Poco::trim(detail).empty()) p.descriptionDetail = detail;
    }
    p.metaKeywords = optTrimmed(b, "meta_keywords", kMaxKeywordsChars);
    if (auto type = b.optText("type")) {
        if (*type != "subscription" && *type != "physical") b.fail("type", "Choose subscription or physical.");
        else p.type = *type;
    }
    p.iconUrl = imageUrl(b, "icon_url").value_or("");
    p.pictureUrl = imageUrl(b, "picture_url");
    // The form sends "" for an empty stock field: that is "not tracked" (null).
    const bool emptyStock = b.json().contains("stock_quantity") && b.json()["stock_quantity"] == "";
    if (!emptyStock) p.stockQuantity = boundedInteger(b, "stock_quantity", 0, kMaxStock, "Must be 0 or more.");
    p.trackInventory = b.boolean("track_inventory", false);
    p.isActive = b.boolean("is_active", true);
    p.showPricing = b.boolean("show_pricing", true);
    if (b.has("features")) {
        const auto& f = b.json()["features"];
        if (!f.is_array()) b.fail("features", "Must be a list of text.");
        else {
            for (const auto& item : f) {
                if (!item.is_string()) {
                    b.fail("features", "Must be a list of text.");
                    break;
                }
                auto text = Poco::trim(item.get<std::string>());
                if (text.empty()) continue;
                if (common::codePoints(text) > kMaxFeatureChars) {
                    b.fail("features", "Each feature must be at most " + std::to_string(kMaxFeatureChars) + " characters.");
                    break;
                }
                p.features.push_back(std::move(text));
            }
            if (p.features.size() > kMaxFeatures) b.fail("features", "At most " + std::to_string(kMaxFeatures) + " features.");
        }
    }
    p.actionType = optTrimmed(b, "action_type", kMaxActionTypeChars);
    p.actionUrl = httpUrl(b, "action_url");
    p.priceNzd = boundedInteger(b, "price_nzd", 0, kMaxPriceMinorUnits, "Must be 0 or more (minor units), at most 100000000.")
                     .value_or(0);
    if (auto interval = optTrimmed(b, "billing_interval", 10)) {
        if (*interval != "month" && *interval != "year") b.fail("billing_interval", "Choose month or year.");
        else p.billingInterval = interval;
    }
    return p;
}

PricingPlan planFrom(Body& b) {
    PricingPlan plan;
    plan.name = b.requiredLine("name", kMaxPlanNameChars);
    if (!b.json().contains("price") || b.json()["price"].is_null()) b.fail("price", "This field is required.");
    else if (!b.json()["price"].is_string()) b.fail("price", "Send the price as text in major units, e.g. \"19.99\".");
    else if (auto minor = parseMajorUnits(Poco::trim(b.json()["price"].get<std::string>())))
        plan.priceAmount = *minor;
    else b.fail("price", "Enter a price of 0 or more with at most 2 decimals (at most 1,000,000.00), e.g. 19.99.");
    if (auto currency = b.optText("currency")) {
        if (!isCurrency(*currency)) b.fail("currency", "Choose NZD, AUD or USD.");
        else plan.currency = *currency;
    }
    if (auto value = b.optInteger("billing_frequency_value")) {
        if (*value != 1 && *value != 3 && *value != 6 && *value != 12) b.fail("billing_frequency_value", "Choose 1, 3, 6 or 12.");
        else plan.billingFrequencyValue = static_cast<int>(*value);
    }
    if (auto unit = b.optText("billing_frequency_unit")) {
        if (*unit != "month" && *unit != "year") b.fail("billing_frequency_unit", "Choose month or year.");
        else plan.billingFrequencyUnit = *unit;
    }
    if (auto order = boundedInteger(b, "sort_order", -kMaxSortOrder, kMaxSortOrder, "Must be between -1000000 and 1000000."))
        plan.sortOrder = static_cast<int>(*order);
    if (auto days = b.optIntegerIn("trial_days", 0, 90, "Choose 0 to 90 days.")) plan.trialDays = static_cast<int>(*days);
    return plan;
}

// The stored value overlaid with the request's known fields: a PATCH is checked as a whole.
nlohmann::json merged(nlohmann::json current, const nlohmann::json& patch, const std::set<std::string>& fields) {
    for (const auto& [key, value] : patch.items())
        if (fields.contains(key)) current[key] = value;
    return current;
}

nlohmann::json imageJson(const Image& i) {
    nlohmann::json j = {{"url", i.url}, {"name", i.name}, {"folder", i.folder}};
    if (!i.srcset.empty()) {
        j["width"] = i.width;
        j["height"] = i.height;
        j["srcset"] = i.srcset;
    }
    return j;
}

// If-None-Match (RFC 9110 13.1.2): "*" or a list of entity tags, compared weakly.
bool etagMatches(const std::string& header, const std::string& etag) {
    std::size_t i = 0;
    while (i < header.size()) {
        while (i < header.size() && (header[i] == ' ' || header[i] == '\t' || header[i] == ',')) ++i;
        if (i >= header.size()) break;
        if (header[i] == '*') return true;
        if (header.compare(i, 2, "W/") == 0) i += 2;
        if (i >= header.size() || header[i] != '"') return false;
        const auto end = header.find('"', i + 1);
        if (end == std::string::npos) return false;
        if (header.compare(i, end + 1 - i, etag) == 0) return true;
        i = end + 1;
    }
    return false;
}

} // namespace

void registerAdminRoutes(http::Router& router, ProductRepository& products, CatalogAdmin& admin, ImageStore& images) {
    using http::Access;

    router.get("/api/v1/admin/products", Access::StaffAdmin, [&products](http::Request& req, http::Response& res) {
        const auto page = http::readPage(req);
        const auto search = http::readSearch(req);
        res.json(200, http::pageJson(products.listAll(search, http::pageQuery(page)), page, [](const Product& p) { return staffJson(p); }));
    });

    router.post("/api/v1/admin/products", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        Body body(req, Body::Style::Fields422, Body::Empty::Refused);
        auto input = productFrom(body);
        body.check();
        auto created = admin.createProduct(actor, std::move(input));
        res.json(201, {{"product", staffJson(created)}});
    });

    router.add("PATCH", "/api/v1/admin/products/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = productId(req);
        Body patch(req, Body::Style::Fields422, Body::Empty::Refused);
        auto updated = admin.updateProduct(actor, id, [&patch](const Product& current) {
            auto base = toJson(current, false);
            Body body(merged(std::move(base), patch.json(), kProductFields));
            auto next = productFrom(body);
            body.check();
            return next;
        });
        res.json(200, {{"product", staffJson(updated)}});
    });

    router.del("/api/v1/admin/products/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        admin.deleteProduct(actor, productId(req));
        res.noContent();
    });

    router.post("/api/v1/admin/products/{id}/plans", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = productId(req);
        Body body(req, Body::Style::Fields422, Body::Empty::Refused);
        auto input = planFrom(body);
        body.check();
        auto created = admin.createPlan(actor, id, std::move(input));
        res.json(201, {{"plan", staffJson(created)}});
    });

    router.add("PATCH", "/api/v1/admin/plans/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        const auto id = planId(req);
        Body patch(req, Body::Style::Fields422, Body::Empty::Refused);
        auto updated = admin.updatePlan(actor, id, [&patch](const PricingPlan& current) {
            nlohmann::json base = {{"name", current.name},
                                   {"price", formatMinorUnits(current.priceAmount)},
                                   {"currency", current.currency},
                                   {"billing_frequency_value", current.billingFrequencyValue},
                                   {"billing_frequency_unit", current.billingFrequencyUnit},
                                   {"sort_order", current.sortOrder},
                                   {"trial_days", current.trialDays}};
            Body body(merged(std::move(base), patch.json(), kPlanFields));
            auto next = planFrom(body);
            body.check();
            return next;
        });
        res.json(200, {{"plan", staffJson(updated)}});
    });

    router.del("/api/v1/admin/plans/{id}", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        admin.deletePlan(actor, planId(req));
        res.noContent();
    });

    router.get("/api/v1/admin/images", Access::StaffAdmin, [&images](http::Request&, http::Response& res) {
        auto list = images.list();
        nlohmann::json items = nlohmann::json::array();
        for (const auto& i : list.images) items.push_back(imageJson(i));
        res.json(200, {{"folders", list.folders}, {"images", std::move(items)}});
    });

    router.post("/api/v1/admin/images", Access::StaffAdmin, [&admin](http::Request& req, http::Response& res) {
        const auto actor = audit::actorOf(req);
        req.allowBodyUpTo(kMaxImageBytes);
        auto type = Poco::toLower(req.header("Content-Type"));
        type = Poco::trim(type.substr(0, type.find(';')));
        const auto& bytes = req.body(); // 413 past kMaxImageBytes
        if (type != "image/png" && type != "image/jpeg" && type != "image/webp") {
            ApiError e(ErrorKind::Validation, "unsupported_image", "Upload a PNG, JPEG or WebP image.");
            e.fields = {{"image", "Upload a PNG, JPEG or WebP image."}};
            throw e;
        }
        auto stored = admin.uploadImage(actor, bytes);
        res.json(201, {{"image", imageJson(stored)}});
    });

    // Uploads from the database. A name never changes what it serves (content-addressed), so the
    // answer is cached for a year as immutable; the ETag is the SHA-256 of the bytes.
    router.get("/uploads/{name}", Access::Anyone, [&images](http::Request& req, http::Response& res) {
        auto file = images.read(req.param("name"));
        if (!file) throw ApiError::notFound("not_found", "No such image.");
        const std::string etag = "\"" + file->sha256 + "\"";
        res.set("ETag", etag);
        res.set("Cache-Control", "public, max-age=31536000, immutable");
        if (etagMatches(req.header("If-None-Match"), etag)) {
            res.status = 304;
            res.contentType = file->contentType;
            return;
        }
        res.text(200, file->contentType, std::move(file->bytes));
    });
}

} // namespace storefront::catalog
