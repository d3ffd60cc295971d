#pragma once
// Product pictures for the admin image picker: the web build's products/<folder>/ files (served by
// the static files as /products/<folder>/<file>) and staff uploads, kept in the database's images
// table (migration 0014) so that every server on it serves them and a backup holds them. An
// upload is PNG, JPEG or WebP, decided by its first bytes (never by its name or declared type),
// decoded whole and re-encoded without metadata (catalog/image_codec.h); SVG is refused because
// it can carry script. Served at /uploads/<name>, content-addressed, with immutable caching.
#include "catalog/image_codec.h"
#include "db/database.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::catalog {

inline constexpr std::size_t kMaxImageBytes = 5 * 1024 * 1024;

struct Image {
    std::string url, name, folder;
    // Uploads only: the stored picture's size and every stored width as an HTML srcset.
    int width = 0, height = 0;
    std::string srcset;
};

struct ImageList {
    std::vector<std::string> folders;
    std::vector<Image> images;
};

// The image type of `bytes` by its magic number: "png", "jpg", "webp", or nullopt.
std::optional<std::string> imageTypeOf(std::string_view bytes);
// The Content-Type for an extension png | jpg | webp.
std::string imageContentType(const std::string& extension);
// Whether `name` is one an upload can have: <64 hex>.<ext> or <64 hex>-w<width>.<ext>.
bool isUploadName(const std::string& name);

class ImageStore {
public:
    ImageStore(db::Database& db, std::string webDir, std::string dataDir);

    // Folders in the picker's order (bluetooth, hit, hhtraff, wirewrite, usb-cable, then any other,
    // then uploads) and every image in them (uploads newest first).
    ImageList list() const;
    // Stores a prepared upload under the hash of its stored bytes, with its narrower copies, in
    // `tx` (once: the same picture again is the same row). Returns it.
    Image store(db::Tx& tx, const PreparedImage& image) const;
    // An upload's bytes by name; nullopt for an unknown or malformed name.
    struct File {
        std::string contentType, sha256, bytes;
    };
    std::optional<File> read(const std::string& name) const;

    // Moves the pictures of the old <data dir>/uploads folder (before 0014) into the table under
    // their old names, so their URLs keep working, then renames the folder to
    // uploads.moved-to-database. Idempotent: a name already stored is skipped, and without the
    // folder it does nothing. A file that is not a whole PNG, JPEG or WebP stays behind (logged).
    // Returns how many pictures it stored.
    std::size_t moveInUploadsFolder() const;

private:
    Image insert(db::Tx& tx, const std::string& name, const PreparedImage& image) const;

    db::Database& db_;
    std::string productsDir_;
    std::string dataDir_;
};

} // namespace storefront::catalog
