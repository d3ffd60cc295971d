#include "catalog/image_store.h"

#include "db/database.h"

#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

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

ImageStore::ImageStore(std::string webDir, std::string dataDir)
    : productsDir_((fs::path(webDir) / "products").string()), uploadsDir_((fs::path(dataDir) / kUploadsFolder).string()) {}

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
            out.images.push_back({"/products/" + folder + "/" + file, file, folder});
    folders.push_back(kUploadsFolder);
    for (const auto& file : filesIn(uploadsDir_)) out.images.push_back({std::string("/uploads/") + file, file, kUploadsFolder});
    out.folders = std::move(folders);
    return out;
}

std::optional<Image> ImageStore::store(std::string_view bytes) const {
    auto type = imageTypeOf(bytes);
    if (!type) return std::nullopt;
    Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
    sha.update(bytes.data(), static_cast<unsigned>(bytes.size()));
    const std::string name = Poco::DigestEngine::digestToHex(sha.digest()) + "." + *type;
    fs::create_directories(uploadsDir_);
    const auto target = fs::path(uploadsDir_) / name;
    if (!fs::exists(target)) {
        // Written beside it and renamed, so a reader never sees half a file.
        const auto partial = fs::path(uploadsDir_) / ("." + name + "." + db::newId() + ".part");
        {
            std::ofstream out(partial, std::ios::binary);
            out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
            if (!out) throw std::runtime_error("could not write the upload");
        }
        fs::rename(partial, target);
    }
    return Image{"/uploads/" + name, name, kUploadsFolder};
}

std::optional<ImageStore::File> ImageStore::read(const std::string& name) const {
    static const std::regex kName("^[0-9a-f]{64}\\.(png|jpg|webp)$");
    std::smatch m;
    if (!std::regex_match(name, m, kName)) return std::nullopt;
    std::ifstream in(fs::path(uploadsDir_) / name, std::ios::binary);
    if (!in) return std::nullopt;
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return File{imageContentType(m[1].str()), bytes.str()};
}

} // namespace storefront::catalog
