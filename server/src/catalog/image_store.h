#pragma once
// Product pictures for the admin image picker: the web build's products/<folder>/ files (served by
// the static files as /products/<folder>/<file>) and staff uploads, stored under
// <data dir>/uploads as <sha256>.<ext> and served at /uploads/<name>. An upload is PNG, JPEG or
// WebP, decided by its first bytes (never by its name or declared type); SVG is refused because
// it can carry script.
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::catalog {

inline constexpr std::size_t kMaxImageBytes = 5 * 1024 * 1024;

struct Image {
    std::string url, name, folder;
};

struct ImageList {
    std::vector<std::string> folders;
    std::vector<Image> images;
};

// The image type of `bytes` by its magic number: "png", "jpg", "webp", or nullopt.
std::optional<std::string> imageTypeOf(std::string_view bytes);
// The Content-Type for an extension png | jpg | webp.
std::string imageContentType(const std::string& extension);

class ImageStore {
public:
    ImageStore(std::string webDir, std::string dataDir);

    // Folders in the picker's order (bluetooth, hit, hhtraff, wirewrite, usb-cable, then any other,
    // then uploads) and every image in them.
    ImageList list() const;
    // Stores an upload under its content hash (once); nullopt when it is not PNG, JPEG or WebP.
    std::optional<Image> store(std::string_view bytes) const;
    // An upload's bytes and Content-Type by name; nullopt for an unknown or malformed name.
    struct File {
        std::string contentType, bytes;
    };
    std::optional<File> read(const std::string& name) const;

private:
    std::string productsDir_;
    std::string uploadsDir_;
};

} // namespace storefront::catalog
