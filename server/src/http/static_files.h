#pragma once
// Serves the web build (web/dist) from memory: content-hashed /assets/ as immutable, the rest
// revalidated by ETag; precompressed .br/.gz siblings chosen by Accept-Encoding.
#include "http/request.h"
#include "http/response.h"

#include <map>
#include <optional>
#include <string>

namespace storefront::http {

struct Asset {
    std::string contentType;
    std::string identity;
    std::optional<std::string> gzip;
    std::optional<std::string> brotli;
    std::string etag;
    bool immutable = false;
};

class StaticFiles {
public:
    // Loads every file under `root`. A missing root leaves the set empty (API-only server).
    void load(const std::string& root);

    const Asset* find(const std::string& path) const;
    bool empty() const { return assets_.empty(); }

    // Answers with the asset: 304 for a matching If-None-Match, else the best encoding.
    static void serve(Request& request, Response& response, const Asset& asset);

    // Content type by file extension ("application/octet-stream" when unknown).
    static std::string contentTypeFor(const std::string& path);

private:
    std::map<std::string, Asset> assets_; // URL path -> asset
};

// Picks "br", "gzip" or "" from an Accept-Encoding header, honouring q=0.
std::string chooseEncoding(const std::string& acceptEncoding, bool haveBrotli, bool haveGzip);

} // namespace storefront::http
