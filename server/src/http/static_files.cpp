#include "http/static_files.h"

#include <Poco/String.h>
#include <Poco/StringTokenizer.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

namespace storefront::http {

namespace fs = std::filesystem;

namespace {

std::string readFile(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string etagFor(const std::string& content) {
    // Strong validator from size and a 64-bit FNV-1a hash of the bytes.
    std::uint64_t h = 1469598103934665603ULL;
    for (unsigned char c : content) {
        h ^= c;
        h *= 1099511628211ULL;
    }
    std::ostringstream out;
    out << '"' << std::hex << content.size() << '-' << h << '"';
    return out.str();
}

bool acceptsCoding(const std::string& header, const std::string& coding) {
    constexpr int kTrim = Poco::StringTokenizer::TOK_TRIM | Poco::StringTokenizer::TOK_IGNORE_EMPTY;
    for (const auto& item : Poco::StringTokenizer(Poco::toLower(header), ",", kTrim)) {
        Poco::StringTokenizer parts(item, ";", kTrim);
        if (parts.count() == 0 || (parts[0] != coding && parts[0] != "*")) continue;
        for (std::size_t i = 1; i < parts.count(); ++i)
            if (parts[i].starts_with("q=") && std::atof(parts[i].c_str() + 2) <= 0.0) return false;
        return true;
    }
    return false;
}

} // namespace

std::string chooseEncoding(const std::string& acceptEncoding, bool haveBrotli, bool haveGzip) {
    if (haveBrotli && acceptsCoding(acceptEncoding, "br")) return "br";
    if (haveGzip && acceptsCoding(acceptEncoding, "gzip")) return "gzip";
    return "";
}

std::string StaticFiles::contentTypeFor(const std::string& path) {
    static const std::map<std::string, std::string> types = {
        {".html", "text/html; charset=utf-8"}, {".js", "text/javascript; charset=utf-8"},
        {".mjs", "text/javascript; charset=utf-8"}, {".css", "text/css; charset=utf-8"},
        {".svg", "image/svg+xml"}, {".png", "image/png"}, {".jpg", "image/jpeg"}, {".jpeg", "image/jpeg"},
        {".webp", "image/webp"}, {".gif", "image/gif"}, {".ico", "image/x-icon"},
        {".json", "application/json; charset=utf-8"}, {".webmanifest", "application/manifest+json"},
        {".txt", "text/plain; charset=utf-8"}, {".xml", "application/xml; charset=utf-8"},
        {".woff2", "font/woff2"}, {".woff", "font/woff"}, {".map", "application/json; charset=utf-8"},
    };
    auto ext = Poco::toLower(fs::path(path).extension().string());
    auto it = types.find(ext);
    return it == types.end() ? "application/octet-stream" : it->second;
}

void StaticFiles::load(const std::string& root) {
    assets_.clear();
    std::error_code ec;
    if (root.empty() || !fs::is_directory(root, ec)) return;
    for (const auto& entry : fs::recursive_directory_iterator(root, ec)) {
        if (!entry.is_regular_file()) continue;
        const auto& p = entry.path();
        auto ext = p.extension().string();
        if (ext == ".gz" || ext == ".br") continue;
        std::string url = "/" + fs::relative(p, root).generic_string();
        Asset asset;
        asset.contentType = contentTypeFor(url);
        asset.identity = readFile(p);
        asset.etag = etagFor(asset.identity);
        asset.immutable = url.starts_with("/assets/");
        if (fs::exists(p.string() + ".gz")) asset.gzip = readFile(p.string() + ".gz");
        if (fs::exists(p.string() + ".br")) asset.brotli = readFile(p.string() + ".br");
        assets_.emplace(std::move(url), std::move(asset));
    }
}

const Asset* StaticFiles::find(const std::string& path) const {
    auto it = assets_.find(path);
    return it == assets_.end() ? nullptr : &it->second;
}

void StaticFiles::serve(Request& request, Response& response, const Asset& asset) {
    response.set("ETag", asset.etag);
    response.set("Cache-Control", asset.immutable ? "public, max-age=31536000, immutable" : "no-cache");
    if (asset.gzip || asset.brotli) response.set("Vary", "Accept-Encoding");
    response.contentType = asset.contentType;
    const std::string ifNoneMatch = request.header("If-None-Match");
    if (!ifNoneMatch.empty() && (ifNoneMatch == asset.etag || ifNoneMatch == "*" ||
                                 ifNoneMatch.find(asset.etag) != std::string::npos)) {
        response.status = 304;
        response.body.clear();
        return;
    }
    response.status = 200;
    const auto encoding = chooseEncoding(request.header("Accept-Encoding"), asset.brotli.has_value(),
                                         asset.gzip.has_value());
    if (encoding == "br") {
        response.set("Content-Encoding", "br");
        response.body = *asset.brotli;
    } else if (encoding == "gzip") {
        response.set("Content-Encoding", "gzip");
        response.body = *asset.gzip;
    } else {
        response.body = asset.identity;
    }
}

} // namespace storefront::http
