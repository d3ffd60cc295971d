#include "catalog/image_store.h"

#include "db/database.h"
#include "db/query.h"

#include <Poco/DigestEngine.h>
#include <Poco/Logger.h>
#include <Poco/SHA2Engine.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <system_error>

namespace fs = std::filesystem;

namespace storefront::catalog {

namespace {

// The spec's folders, in the picker's order.
const std::array<std::string, 5> kKnownFolders = {"bluetooth", "hit", "hhtraff", "wirewrite", "usb-cable"};
constexpr const char* kUploadsFolder = "uploads";

bool isPictureFile(const fs::path& p) {
    auto ext = p.extension().string();
    std::transform(ext.begin(), ext.end(), ext.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return ext == ".svg" || ext == ".png" || ext == ".jpg" || ext == ".jpeg" || ext == ".webp" || ext == ".gif" ||
           ext == ".avif";
}

std::vector<std::string> filesIn(const fs::path& dir) {
    std::vector<std::string> names;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return names;
    for (const auto& entry : fs::directory_iterator(dir, ec))
        if (entry.is_regular_file(ec) && isPictureFile(entry.path())) names.push_back(entry.path().filename().string());
    std::sort(names.begin(), names.end());
    return names;
}

bool startsWith(std::string_view bytes, std::string_view prefix) { return bytes.substr(0, prefix.size()) == prefix; }

constexpr const char* kInsertImage =
    "INSERT INTO images (name, original_name, content_type, byte_size, sha256, width, height, srcset, bytes, created_at) "
    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (name) DO NOTHING";
constexpr const char* kFindUpload = "SELECT name, width, height, srcset FROM images WHERE name = ? AND original_name IS NULL";
// images_uploads_created_at_idx serves this order.
constexpr const char* kListUploads =
    "SELECT name, width, height, srcset FROM images WHERE original_name IS NULL ORDER BY created_at DESC, name DESC";
constexpr const char* kReadImage = "SELECT content_type, sha256, bytes FROM images WHERE name = ?";

const std::regex kUploadName("^[0-9a-f]{64}(-w[0-9]{1,5})?\\.(png|jpg|webp)$");
// The names the uploads folder used before 0014: <sha256 of the file>.<ext>.
const std::regex kFolderName("^[0-9a-f]{64}\\.(png|jpg|webp)$");

std::string sha256Hex(std::string_view bytes) {
    Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
    sha.update(bytes.data(), static_cast<unsigned>(bytes.size()));
    return Poco::DigestEngine::digestToHex(sha.digest());
}

Image uploadFrom(const db::Row& r) {
    Image i;
    i.name = r.text("name");
    i.url = "/uploads/" + i.name;
    i.folder = kUploadsFolder;
    i.width = static_cast<int>(r.int64("width"));
    i.height = static_cast<int>(r.int64("height"));
    i.srcset = r.text("srcset");
    return i;
}

std::string readWholeFile(const fs::path& path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot read " + path.string());
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

} // namespace

std::optional<std::string> imageTypeOf(std::string_view b) {
    if (startsWith(b, std::string_view("\x89PNG\r\n\x1a\n", 8))) return "png";
    if (startsWith(b, std::string_view("\xFF\xD8\xFF", 3))) return "jpg";
    if (b.size() >= 12 && startsWith(b, "RIFF") && b.substr(8, 4) == "WEBP") return "webp";
    return std::nullopt;
}

std::string imageContentType(const std::string& extension) {
    if (extension == "png") return "image/png";
    if (extension == "jpg") return "image/jpeg";
    return "image/webp";
}

bool isUploadName(const std::string& name) { return std::regex_match(name, kUploadName); }

ImageStore::ImageStore(db::Database& db, std::string webDir, std::string dataDir)
    : db_(db), productsDir_((fs::path(webDir) / "products").string()), dataDir_(std::move(dataDir)) {}

ImageList ImageStore::list() const {
    ImageList out;
    std::vector<std::string> folders(kKnownFolders.begin(), kKnownFolders.end());
    std::vector<std::string> others;
    std::error_code ec;
    if (fs::is_directory(productsDir_, ec))
        for (const auto& entry : fs::directory_iterator(productsDir_, ec)) {
            const auto name = entry.path().filename().string();
            if (entry.is_directory(ec) && name != kUploadsFolder &&
                std::find(folders.begin(), folders.end(), name) == folders.end())
                others.push_back(name);
        }
    std::sort(others.begin(), others.end());
    folders.insert(folders.end(), others.begin(), others.end());
    for (const auto& folder : folders)
        for (const auto& file : filesIn(fs::path(productsDir_) / folder))
            out.images.push_back({"/products/" + folder + "/" + file, file, folder, 0, 0, {}});
    folders.push_back(kUploadsFolder);
    auto session = db_.session();
    for (auto& upload : db::query(session, kListUploads).all(uploadFrom)) out.images.push_back(std::move(upload));
    out.folders = std::move(folders);
    return out;
}

Image ImageStore::insert(db::Tx& tx, const std::string& name, const PreparedImage& image) const {
    if (auto existing = tx.query(kFindUpload).bind(name).one(uploadFrom)) return *existing;
    const auto stem = name.substr(0, name.rfind('.'));
    const auto now = tx.clock().nowTimestamp();
    std::vector<std::string> names;
    std::string srcset;
    for (const auto& narrower : image.widths) {
        names.push_back(stem + "-w" + std::to_string(narrower.width) + "." + image.extension);
        srcset += "/uploads/" + names.back() + " " + std::to_string(narrower.width) + "w, ";
    }
    srcset += "/uploads/" + name + " " + std::to_string(image.full.width) + "w";
    auto row = [&](const std::string& rowName, const std::optional<std::string>& original, const EncodedImage& encoded,
                   const std::optional<std::string>& rowSrcset) {
        tx.query(kInsertImage)
            .bind(rowName, original, image.contentType, static_cast<std::int64_t>(encoded.bytes.size()),
                  sha256Hex(encoded.bytes), encoded.width, encoded.height, rowSrcset)
            .bindBytes(encoded.bytes)
            .bind(now)
            .run();
    };
    row(name, std::nullopt, image.full, srcset);
    for (std::size_t i = 0; i < image.widths.size(); ++i) row(names[i], name, image.widths[i], std::nullopt);
    // A product may already show this URL: its cached JSON gains the srcset.
    tx.notify(db::topic::kCatalog);
    Image stored{"/uploads/" + name, name, kUploadsFolder, image.full.width, image.full.height, srcset};
    return stored;
}

Image ImageStore::store(db::Tx& tx, const PreparedImage& image) const {
    return insert(tx, sha256Hex(image.full.bytes) + "." + image.extension, image);
}

std::optional<ImageStore::File> ImageStore::read(const std::string& name) const {
    if (!isUploadName(name)) return std::nullopt;
    auto session = db_.session();
    return db::query(session, kReadImage).bind(name).one([](const db::Row& r) {
        return File{r.text("content_type"), r.text("sha256"), r.bytes("bytes")};
    });
}

std::size_t ImageStore::moveInUploadsFolder() const {
    if (dataDir_.empty()) return 0;
    const auto folder = fs::path(dataDir_) / kUploadsFolder;
    std::error_code ec;
    if (!fs::is_directory(folder, ec)) return 0;
    auto& log = Poco::Logger::get("storefront.images");
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(folder, ec))
        if (entry.is_regular_file(ec) && std::regex_match(entry.path().filename().string(), kFolderName))
            files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    std::size_t moved = 0, left = 0;
    for (const auto& file : files) {
        const auto name = file.filename().string();
        PreparedImage prepared;
        try {
            const auto bytes = readWholeFile(file);
            if (bytes.size() > kMaxImageBytes) throw ImageRejected("image_too_large", "larger than 5 MB");
            prepared = prepareImage(bytes);
        } catch (const std::exception& e) {
            log.warning("uploads folder: %s is not moved into the database (%s); it stays in %s", name,
                        std::string(e.what()), (folder.string() + ".moved-to-database"));
            ++left;
            continue;
        }
        // Under its old name (the product rows' URLs), whatever its new bytes hash to.
        if (name.substr(name.rfind('.') + 1) != prepared.extension) {
            log.warning("uploads folder: %s is not a %s file; it stays behind", name, name.substr(name.rfind('.') + 1));
            ++left;
            continue;
        }
        bool inserted = false;
        db_.write([&](db::Tx& tx) {
            inserted = !tx.query(kFindUpload).bind(name).exists();
            if (inserted) insert(tx, name, prepared);
        });
        if (inserted) ++moved;
    }
    // Renamed, not deleted: the operator removes it once satisfied. A second start finds no folder.
    auto target = fs::path(folder.string() + ".moved-to-database");
    if (fs::exists(target, ec)) target = fs::path(target.string() + "-" + db::newId().substr(0, 8));
    fs::rename(folder, target, ec);
    if (ec) log.warning("uploads folder: could not rename %s: %s", folder.string(), ec.message());
    log.information("uploads folder: moved %z picture(s) into the database (%z left behind) and renamed it to %s", moved, left,
                    target.string());
    return moved;
}

} // namespace storefront::catalog
