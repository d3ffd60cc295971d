#include "seo/head.h"

#include <algorithm>
#include <optional>
#include <utility>

#include "catalog/money.h"
#include "common/text.h"
#include "seo/text.h"

#include <Poco/StringTokenizer.h>

#include <vector>

namespace storefront::seo {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxKeywords = 20;
constexpr std::size_t kMaxStructuredDescription = 5000; // code points of JSON-LD descriptions
constexpr const char* kCurrency = "NZD";

char asciiLower(char c) { return (c >= 'A' && c <= 'Z') ? static_cast<char>(c - 'A' + 'a') : c; }

std::string asciiLower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(), [](char c) { return asciiLower(c); });
    return out;
}

bool startsWithIgnoreCase(std::string_view s, std::string_view prefix) {
    return s.size() >= prefix.size() && asciiLower(s.substr(0, prefix.size())) == prefix;
}

std::string_view trimAscii(std::string_view s) {
    const auto isSpace = [](char c) { return c == ' ' || (c >= '\t' && c <= '\r'); };
    while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
    return s;
}

// publicUrl without a trailing slash.
std::string baseUrl(const SiteInfo& site) {
    std::string base = site.publicUrl;
    while (!base.empty() && base.back() == '/') base.pop_back();
    return base;
}

// Percent-encodes bytes that may not appear raw in a URL (controls, space, non-ASCII, and
// " < > \ ^ ` { | }), keeping reserved characters and existing %XX escapes.
std::string encodeUrl(std::string_view url) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(url.size());
    for (const char ch : url) {
        const auto c = static_cast<unsigned char>(ch);
        if (c <= 0x20 || c >= 0x7F || std::string_view("\"<>\\^`{|}").find(ch) != std::string_view::npos) {
            out += '%';
            out += kHex[c >> 4];
            out += kHex[c & 0x0F];
        } else {
            out += ch;
        }
    }
    return out;
}

// Comma-separated keywords: trimmed, empty ones dropped, duplicates (ignoring ASCII case) removed.
void collectKeywords(std::string_view list, std::vector<std::string>& keywords, std::vector<std::string>& seen) {
    while (!list.empty() && keywords.size() < kMaxKeywords) {
        const std::size_t comma = list.find(',');
        const std::string_view item = trimAscii(list.substr(0, comma));
        list = comma == std::string_view::npos ? std::string_view{} : list.substr(comma + 1);
        if (item.empty()) continue;
        std::string key = asciiLower(item);
        if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
        seen.push_back(std::move(key));
        keywords.emplace_back(item);
    }
}

std::string joinKeywords(const std::vector<std::string>& keywords) {
    std::string out;
    for (const std::string& k : keywords) {
        if (!out.empty()) out += ", ";
        out += k;
    }
    return out;
}

// Tag writers: one tag per line, every value escaped.
class HeadWriter {
public:
    void title(std::string_view text) { out_ += "<title>" + escapeHtml(text) + "</title>\n"; }
    void metaName(std::string_view name, std::string_view content) {
        out_ += "<meta name=\"" + escapeHtml(name) + "\" content=\"" + escapeHtml(content) + "\">\n";
    }
    void metaProperty(std::string_view property, std::string_view content) {
        out_ += "<meta property=\"" + escapeHtml(property) + "\" content=\"" + escapeHtml(content) + "\">\n";
    }
    void canonical(std::string_view url) { out_ += "<link rel=\"canonical\" href=\"" + escapeHtml(url) + "\">\n"; }
    void jsonLd(const json& data) {
        out_ += "<script type=\"application/ld+json\">" + jsonForScript(data) + "</script>\n";
    }
    std::string take() { return std::move(out_); }

private:
    std::string out_;
};

struct SocialTags {
    std::string type; // og:type
    std::string title;
    std::string description;
    std::string url;   // may be empty
    std::string image; // absolute, may be empty
};

void writeSocial(HeadWriter& w, const SiteInfo& site, const SocialTags& s) {
    w.metaProperty("og:type", s.type);
    w.metaProperty("og:title", s.title);
    if (!s.description.empty()) w.metaProperty("og:description", s.description);
    if (!s.url.empty()) w.metaProperty("og:url", s.url);
    w.metaProperty("og:site_name", site.siteName);
    w.metaProperty("og:locale", "en_NZ");
    if (!s.image.empty()) w.metaProperty("og:image", s.image);
    w.metaName("twitter:card", s.image.empty() ? "summary" : "summary_large_image");
    w.metaName("twitter:title", s.title);
    if (!s.description.empty()) w.metaName("twitter:description", s.description);
    if (!s.image.empty()) w.metaName("twitter:image", s.image);
}

std::string siteTitle(const SiteInfo& site) { return site.defaultTitle.empty() ? site.siteName : site.defaultTitle; }

std::string productImage(const SiteInfo& site, const catalog::Product& p) {
    std::string image;
    if (p.pictureUrl) image = absoluteUrl(site, *p.pictureUrl);
    if (image.empty()) image = absoluteUrl(site, p.iconUrl);
    return image;
}

// ISO 8601 duration of a billing period ("P1M", "P12M", "P1Y"), or empty for an unknown unit.
std::string billingDuration(int value, std::string_view unit) {
    const std::string u = asciiLower(unit);
    const char* designator = u == "month" ? "M" : u == "year" ? "Y" : u == "week" ? "W" : u == "day" ? "D" : nullptr;
    if (!designator || value <= 0) return {};
    return "P" + std::to_string(value) + designator;
}

json priceSpecification(std::int64_t minor, const std::string& duration) {
    json spec = {
        {"@type", duration.empty() ? "PriceSpecification" : "UnitPriceSpecification"},
        {"price", catalog::formatMinorUnits(minor)},
        {"priceCurrency", kCurrency},
        {"valueAddedTaxIncluded", true}, // NZ prices include GST
    };
    if (!duration.empty()) spec["billingDuration"] = duration;
    return spec;
}

json offer(std::int64_t minor, const std::string& duration, const std::string& availability, const std::string& url) {
    return {
        {"@type", "Offer"},
        {"price", catalog::formatMinorUnits(minor)},
        {"priceCurrency", kCurrency},
        {"priceSpecification", priceSpecification(minor, duration)},
        {"availability", availability},
        {"url", url},
    };
}

// The JSON-LD offers of a product and its lowest price (see productHead), or nullopt.
std::optional<std::pair<json, std::int64_t>> productOffers(const catalog::Product& p, const std::string& url) {
    if (p.actionType && *p.actionType == "none") return std::nullopt; // Coming Soon: nothing to buy
    const std::string availability =
        catalog::isSoldOut(p) ? "https://schema.org/OutOfStock" : "https://schema.org/InStock";

    std::vector<const catalog::PricingPlan*> plans;
    if (p.type == "subscription")
        for (const catalog::PricingPlan& plan : p.plans)
            if (asciiLower(plan.currency) == "nzd" && plan.priceAmount >= 0) plans.push_back(&plan);

    if (plans.empty()) {
        if (p.priceNzd <= 0) return std::nullopt; // price not set
        const std::string duration =
            p.type == "subscription" && p.billingInterval ? billingDuration(1, *p.billingInterval) : std::string{};
        json o = offer(p.priceNzd, duration, availability, url);
        if (p.type == "physical") o["itemCondition"] = "https://schema.org/NewCondition";
        return std::pair{std::move(o), p.priceNzd};
    }

    auto planOffer = [&](const catalog::PricingPlan& plan) {
        json o = offer(plan.priceAmount, billingDuration(plan.billingFrequencyValue, plan.billingFrequencyUnit),
                       availability, url);
        o["name"] = plan.name;
        return o;
    };
    if (plans.size() == 1) return std::pair{planOffer(*plans.front()), plans.front()->priceAmount};

    const auto [low, high] = std::minmax_element(plans.begin(), plans.end(), [](const auto* a, const auto* b) {
        return a->priceAmount < b->priceAmount;
    });
    json each = json::array();
    for (const catalog::PricingPlan* plan : plans) each.push_back(planOffer(*plan));
    json aggregate = {
        {"@type", "AggregateOffer"},
        {"priceCurrency", kCurrency},
        {"lowPrice", catalog::formatMinorUnits((*low)->priceAmount)},
        {"highPrice", catalog::formatMinorUnits((*high)->priceAmount)},
        {"offerCount", plans.size()},
        {"availability", availability},
        {"url", url},
        {"offers", std::move(each)},
    };
    return std::pair{std::move(aggregate), (*low)->priceAmount};
}

// Case-insensitive search; `last` finds the last occurrence.
std::size_t findIgnoreCase(std::string_view haystack, std::string_view needle, bool last) {
    const std::string lower = asciiLower(haystack);
    return last ? lower.rfind(needle) : lower.find(needle);
}

} // namespace

std::string absoluteUrl(const SiteInfo& site, std::string_view pathOrUrl) {
    const std::string_view s = trimAscii(pathOrUrl);
    if (s.empty()) return {};
    if (s.starts_with("//")) return "https:" + encodeUrl(s);
    const std::size_t colon = s.find(':');
    const std::size_t delimiter = s.find_first_of("/?#");
    if (colon != std::string_view::npos && (delimiter == std::string_view::npos || colon < delimiter)) {
        if (startsWithIgnoreCase(s, "http:") || startsWithIgnoreCase(s, "https:")) return encodeUrl(s);
        return {}; // javascript:, data: and other schemes are never emitted
    }
    return baseUrl(site) + (s.front() == '/' ? "" : "/") + encodeUrl(s);
}

std::string productUrl(const SiteInfo& site, std::string_view slug) {
    return baseUrl(site) + "/product/" + common::encodeUriComponent(std::string(slug));
}

std::string landingHead(const SiteInfo& site, const std::vector<catalog::Product>& products) {
    const std::string base = baseUrl(site);
    const std::string home = base + "/";
    const std::string title = siteTitle(site);
    const std::string description = truncateText(site.defaultDescription);

    std::vector<std::string> keywords, seen;
    std::string image = absoluteUrl(site, site.defaultImagePath);
    json items = json::array();
    for (const catalog::Product& p : products) {
        if (!p.isActive) continue;
        if (p.metaKeywords) collectKeywords(*p.metaKeywords, keywords, seen);
        if (image.empty()) image = productImage(site, p);
        items.push_back({{"@type", "ListItem"},
                         {"position", items.size() + 1},
                         {"name", p.name},
                         {"url", productUrl(site, p.slug)}});
    }

    HeadWriter w;
    w.title(title);
    if (!description.empty()) w.metaName("description", description);
    if (!keywords.empty()) w.metaName("keywords", joinKeywords(keywords));
    w.metaName("robots", "index, follow");
    w.canonical(home);
    writeSocial(w, site, {"website", title, description, home, image});

    json organization = {
        {"@type", "Organization"},
        {"@id", home + "#organization"},
        {"name", site.siteName},
        {"url", home},
    };
    if (const std::string logo = absoluteUrl(site, site.defaultImagePath); !logo.empty()) organization["logo"] = logo;
    json itemList = {
        {"@type", "ItemList"},
        {"name", site.siteName + " products"},
        {"numberOfItems", items.size()},
        {"itemListElement", std::move(items)},
    };
    w.jsonLd({{"@context", "https://schema.org"}, {"@graph", json::array({organization, itemList})}});
    return w.take();
}

std::string productHead(const SiteInfo& site, const catalog::Product& product) {
    const std::string url = productUrl(site, product.slug);
    const std::string title = product.name + " | " + site.siteName;
    // The text of the detailed description, unless it is missing or has no text.
    std::string text = product.descriptionDetail ? plainText(*product.descriptionDetail) : std::string{};
    if (text.empty()) text = plainText(product.description);
    std::string description = truncateText(text);
    if (description.empty()) description = truncateText(site.defaultDescription);
    const std::string image = productImage(site, product);

    std::vector<std::string> keywords, seen;
    if (product.metaKeywords) collectKeywords(*product.metaKeywords, keywords, seen);

    const auto offers = productOffers(product, url);

    HeadWriter w;
    w.title(title);
    if (!description.empty()) w.metaName("description", description);
    if (!keywords.empty()) w.metaName("keywords", joinKeywords(keywords));
    w.metaName("robots", "index, follow");
    w.canonical(url);
    writeSocial(w, site, {"product", title, description, url, image});
    if (offers) {
        w.metaProperty("product:price:amount", catalog::formatMinorUnits(offers->second));
        w.metaProperty("product:price:currency", kCurrency);
    }

    json data = {
        {"@context", "https://schema.org"},
        {"@type", "Product"},
        {"name", product.name},
        {"sku", product.slug},
        {"url", url},
        {"brand", {{"@type", "Organization"}, {"name", site.siteName}}},
    };
    if (std::string full = truncateText(text, kMaxStructuredDescription); !full.empty())
        data["description"] = std::move(full);
    if (!image.empty()) data["image"] = image;
    if (offers) data["offers"] = offers->first;
    w.jsonLd(data);
    return w.take();
}

std::string notFoundHead(const SiteInfo& site) {
    HeadWriter w;
    w.title("Product Not Found | " + site.siteName);
    w.metaName("robots", "noindex");
    return w.take();
}

std::string defaultHead(const SiteInfo& site, std::string_view title, bool index, std::string_view path,
                        std::string_view description) {
    std::string fullTitle;
    const std::string suffix = " | " + site.siteName;
    if (title.empty()) fullTitle = siteTitle(site);
    else if (title.ends_with(suffix)) fullTitle = std::string(title);
    else fullTitle = std::string(title) + suffix;
    const std::string metaText = truncateText(std::string(description.empty() ? site.defaultDescription : description));

    HeadWriter w;
    w.title(fullTitle);
    if (!metaText.empty()) w.metaName("description", metaText);
    w.metaName("robots", index ? "index, follow" : "noindex");
    if (index) {
        const std::string url = path.empty() ? std::string{} : absoluteUrl(site, path);
        if (!url.empty()) w.canonical(url);
        writeSocial(w, site, {"website", fullTitle, metaText, url, absoluteUrl(site, site.defaultImagePath)});
    }
    return w.take();
}

namespace {

struct AppRoute {
    std::vector<std::string> segments; // "checkout", ":slug"
    std::string title;                 // what the server writes in <title>
    std::string description;           // its meta description; empty = the site's
    bool index = false;
};

std::vector<std::string> segmentsOf(std::string_view path) {
    std::vector<std::string> out;
    Poco::StringTokenizer tokens(std::string(path), "/", Poco::StringTokenizer::TOK_IGNORE_EMPTY);
    for (const auto& t : tokens) out.push_back(t);
    return out;
}

// The app's pages from the manifest the React router reads too (web/src/app/pages.json).
const std::vector<AppRoute>& appRoutes() {
    static const std::vector<AppRoute> routes = [] {
        std::vector<AppRoute> out;
        const auto manifest = nlohmann::json::parse(pageManifestJson());
        for (const auto& page : manifest.at("pages")) {
            AppRoute route;
            route.segments = segmentsOf(page.at("path").get<std::string>());
            route.title = page.value("headTitle", page.at("title").get<std::string>());
            route.description = page.value("description", std::string{});
            route.index = page.at("index").get<bool>();
            out.push_back(std::move(route));
        }
        return out;
    }();
    return routes;
}

// The React app's client-side route `path` is (query, fragment and trailing slashes ignored);
// nullopt for anything else. A ":name" segment matches any non-empty segment.
std::optional<AppRoute> findAppRoute(std::string_view path) {
    path = path.substr(0, path.find_first_of("?#"));
    if (path.find("//") != std::string_view::npos) return std::nullopt;
    const auto segments = segmentsOf(path);
    for (const auto& route : appRoutes()) {
        if (route.segments.size() != segments.size() || segments.empty()) continue;
        bool match = true;
        for (std::size_t i = 0; i < segments.size() && match; ++i)
            match = route.segments[i].starts_with(':') || route.segments[i] == segments[i];
        if (match) return route;
    }
    return std::nullopt;
}

} // namespace

bool isAppRoute(std::string_view path) { return findAppRoute(path).has_value(); }

std::string appRouteHead(const SiteInfo& site, std::string_view path) {
    const auto route = findAppRoute(path);
    if (!route) return defaultHead(site, {}, false);
    if (!route->index) return defaultHead(site, route->title, false);
    path = path.substr(0, path.find_first_of("?#"));
    while (path.size() > 1 && path.back() == '/') path.remove_suffix(1);
    return defaultHead(site, route->title, true, path, route->description);
}

std::string withTestPaymentsRibbon(std::string_view templateHtml) {
    // The classes are Tailwind's: web/src/index.css has Tailwind read this file (@source).
    static constexpr std::string_view kRibbon =
        "<div role=\"note\" aria-label=\"Test payments\" class=\"sticky top-0 z-50 bg-amber-400 px-4 py-1 text-center "
        "text-sm font-semibold tracking-wide text-black\">TEST PAYMENTS: orders on this site are test orders, and no "
        "real money is taken.</div>";
    std::size_t at = templateHtml.find("<div id=\"root\"");
    if (at == std::string_view::npos) {
        const std::size_t body = findIgnoreCase(templateHtml, "<body", false);
        const std::size_t bodyEnd = body == std::string_view::npos ? body : templateHtml.find('>', body);
        at = bodyEnd == std::string_view::npos ? 0 : bodyEnd + 1;
    }
    std::string out;
    out.reserve(templateHtml.size() + kRibbon.size());
    out.append(templateHtml.substr(0, at)).append(kRibbon).append(templateHtml.substr(at));
    return out;
}

std::string renderShell(std::string_view templateHtml, std::string_view head, const nlohmann::json& initialData) {
    static constexpr std::string_view kHeadMarker = "<!--app-head-->";
    static constexpr std::string_view kDataMarker = "<!--app-data-->";
    const std::string data =
        "<script id=\"initial-data\" type=\"application/json\">" + jsonForScript(initialData) + "</script>";

    // Where each piece goes in the template (and how many template bytes it replaces), found on the
    // template alone so that inserted content can never be matched as a marker.
    struct Splice {
        std::size_t at;
        std::size_t replaces;
        std::string_view text;
    };
    auto locate = [&](std::string_view marker, std::string_view fallbackTag, bool lastFallback,
                      std::string_view text) -> Splice {
        if (const std::size_t at = templateHtml.find(marker); at != std::string_view::npos)
            return {at, marker.size(), text};
        const std::size_t at = findIgnoreCase(templateHtml, fallbackTag, lastFallback);
        return {at == std::string::npos ? templateHtml.size() : at, 0, text};
    };
    Splice first = locate(kHeadMarker, "</head>", false, head);
    Splice second = locate(kDataMarker, "</body>", true, data);
    if (second.at < first.at) std::swap(first, second);

    std::string out;
    out.reserve(templateHtml.size() + head.size() + data.size());
    out.append(templateHtml.substr(0, first.at));
    out.append(first.text);
    out.append(templateHtml.substr(first.at + first.replaces, second.at - first.at - first.replaces));
    out.append(second.text);
    out.append(templateHtml.substr(second.at + second.replaces));
    return out;
}

} // namespace storefront::seo
