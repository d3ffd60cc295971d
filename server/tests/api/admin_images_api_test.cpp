// The image picker's list and staff uploads: decoded before they are accepted (422 and nothing
// stored otherwise), metadata removed, narrower copies for srcset, kept in the database (every
// server serves them), served content-addressed with ETag and immutable caching; the old uploads
// folder moves into the database once.
#include "api/admin_support.h"

#include "catalog/image_codec.h"
#include "catalog/image_store.h"
#include "db/query.h"

#include <gtest/gtest.h>

#include <Poco/Checksum.h>
#include <Poco/DeflatingStream.h>
#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>

#include <vips/vips8>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

using namespace testing_support;
namespace fs = std::filesystem;

namespace {

std::int64_t uploadAudits() { return countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'image.uploaded'"); }
std::int64_t imageRows() { return countRows("SELECT COUNT(*) FROM images"); }

std::string sha256Hex(const std::string& bytes) {
    Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
    sha.update(bytes.data(), static_cast<unsigned>(bytes.size()));
    return Poco::DigestEngine::digestToHex(sha.digest());
}

// A real picture, `width` x `height`, with colours of its own (so every call is a new upload) and
// some noise (so a JPEG has scan data worth cutting short). `suffix`: ".jpg", ".png", ".webp".
std::string picture(const std::string& suffix, int width, int height, int bands = 3) {
    storefront::catalog::startImageCodec();
    static std::mt19937 random{std::random_device{}()};
    std::vector<double> colour;
    for (int b = 0; b < bands; ++b) colour.push_back(static_cast<double>(random() % 200));
    std::vector<vips::VImage> planes;
    for (int b = 0; b < bands; ++b)
        planes.push_back(vips::VImage::gaussnoise(width, height, vips::VImage::option()->set("sigma", 20.0)));
    auto image = (vips::VImage::bandjoin(planes) + colour).cast(VIPS_FORMAT_UCHAR);
    if (bands >= 3) image = image.copy(vips::VImage::option()->set("interpretation", VIPS_INTERPRETATION_sRGB));
    void* buffer = nullptr;
    std::size_t size = 0;
    image.write_to_buffer(suffix.c_str(), &buffer, &size);
    std::string out(static_cast<const char*>(buffer), size);
    g_free(buffer);
    return out;
}

void put16(std::string& s, unsigned v) { s += static_cast<char>(v >> 8), s += static_cast<char>(v & 0xFF); }
void put32(std::string& s, std::uint32_t v) { put16(s, v >> 16), put16(s, v & 0xFFFF); }

// An EXIF APP1 segment (big-endian TIFF) holding a GPS position: latitude 41° 17' S.
std::string exifWithGps() {
    std::string tiff = "MM";
    put16(tiff, 42);
    put32(tiff, 8);
    // IFD0: one entry, the GPS IFD pointer (tag 0x8825, LONG) to offset 26.
    put16(tiff, 1);
    put16(tiff, 0x8825), put16(tiff, 4), put32(tiff, 1), put32(tiff, 26);
    put32(tiff, 0);
    // GPS IFD at 26: GPSLatitudeRef "S", GPSLatitude three RATIONALs at offset 56.
    put16(tiff, 2);
    put16(tiff, 1), put16(tiff, 2), put32(tiff, 2), tiff += std::string("S\0\0\0", 4);
    put16(tiff, 2), put16(tiff, 5), put32(tiff, 3), put32(tiff, 56);
    put32(tiff, 0);
    for (std::uint32_t v : {41u, 1u, 17u, 1u, 0u, 1u}) put32(tiff, v);
    std::string segment = "\xFF\xE1";
    put16(segment, static_cast<unsigned>(2 + 6 + tiff.size()));
    return segment + std::string("Exif\0\0", 6) + tiff;
}

// A JPEG straight from a camera, as far as its metadata goes: EXIF with GPS after SOI.
std::string jpegWithGps(int width, int height) {
    auto jpeg = picture(".jpg", width, height);
    return jpeg.substr(0, 2) + exifWithGps() + jpeg.substr(2);
}

bool hasField(const storefront::catalog::ImageFacts& facts, const std::string& part) {
    for (const auto& f : facts.fields)
        if (f.find(part) != std::string::npos) return true;
    return false;
}

std::string pngChunk(const std::string& type, const std::string& data) {
    std::string out;
    put32(out, static_cast<std::uint32_t>(data.size()));
    Poco::Checksum crc(Poco::Checksum::TYPE_CRC32);
    crc.update(type + data);
    out += type + data;
    put32(out, crc.checksum());
    return out;
}

// A decompression bomb: a valid 7,000 x 7,000 black PNG (49 million pixels, over the default
// 40 million) in a few kilobytes.
std::string pngBomb() {
    const unsigned side = 7000;
    std::string ihdr;
    put32(ihdr, side), put32(ihdr, side);
    ihdr += std::string("\x01\x00\x00\x00\x00", 5); // 1 bit grey, deflate, no filter, no interlace
    std::ostringstream compressed;
    {
        Poco::DeflatingOutputStream deflate(compressed, Poco::DeflatingStreamBuf::STREAM_ZLIB, 9);
        const std::string row(1 + side / 8, '\0');
        for (unsigned y = 0; y < side; ++y) deflate << row;
        deflate.close();
    }
    return std::string("\x89PNG\r\n\x1a\n", 8) + pngChunk("IHDR", ihdr) + pngChunk("IDAT", compressed.str()) +
           pngChunk("IEND", "");
}

HttpResult upload(const std::string& bytes, const std::string& type) {
    return sendRaw("POST", "/api/v1/admin/images", bytes, type, callers().admin);
}

// The srcset's candidates: URL and width.
std::vector<std::pair<std::string, int>> candidates(const std::string& srcset) {
    std::vector<std::pair<std::string, int>> out;
    std::istringstream in(srcset);
    std::string url, width;
    while (in >> url >> width) {
        if (width.back() == ',') width.pop_back();
        out.emplace_back(url, std::stoi(width.substr(0, width.size() - 1)));
    }
    return out;
}

} // namespace

TEST(AdminImagesApi, OnlyStaffAdmins) {
    expectStaffOnly("GET", "/api/v1/admin/images");
    const auto before = uploadAudits();
    const auto png = picture(".png", 40, 30);
    for (const auto& h : {callers().visitor, callers().customer, callers().adminAal1})
        EXPECT_GE(sendRaw("POST", "/api/v1/admin/images", png, "image/png", h).status, 401);
    EXPECT_EQ(uploadAudits(), before);
}

TEST(AdminImagesApi, ListsTheFoldersAndTheirImages) {
    auto res = getJson("/api/v1/admin/images", callers().admin);
    ASSERT_EQ(res.status, 200) << res.body;
    auto j = res.json();
    EXPECT_EQ(j["folders"][0], "bluetooth");
    EXPECT_EQ(j["folders"][1], "hit");
    EXPECT_EQ(j["folders"].back(), "uploads");
    bool found = false;
    for (const auto& image : j["images"])
        if (image["url"] == "/products/hit/hit-interface.svg") {
            found = true;
            EXPECT_EQ(image["folder"], "hit");
            EXPECT_EQ(image["name"], "hit-interface.svg");
        }
    EXPECT_TRUE(found) << res.body;
}

TEST(AdminImagesApi, AJpegWithGpsIsStrippedStoredInWidthsAndServedImmutable) {
    using storefront::catalog::inspectImage;
    const auto original = jpegWithGps(1500, 1000);
    // The fixture really carries GPS (libvips reads it back).
    ASSERT_TRUE(hasField(inspectImage(original), "GPSLatitude"));
    ASSERT_NE(original.find("Exif"), std::string::npos);

    auto res = upload(original, "image/jpeg");
    ASSERT_EQ(res.status, 201) << res.body;
    auto image = res.json()["image"];
    EXPECT_EQ(image["folder"], "uploads");
    EXPECT_EQ(image["width"], 1500);
    EXPECT_EQ(image["height"], 1000);
    const auto name = image["name"].get<std::string>();
    ASSERT_EQ(name.size(), 64u + 4u);
    EXPECT_EQ(name.substr(64), ".jpg");
    EXPECT_EQ(image["url"], "/uploads/" + name);
    EXPECT_EQ(auditCount("image.uploaded", name), 1);

    auto served = get("/uploads/" + name);
    ASSERT_EQ(served.status, 200);
    EXPECT_EQ(served.header("content-type"), "image/jpeg");
    EXPECT_EQ(served.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(served.header("x-content-type-options"), "nosniff");
    // Content-addressed: the name and the strong ETag are the SHA-256 of the bytes served.
    const auto hash = sha256Hex(served.body);
    EXPECT_EQ(name.substr(0, 64), hash);
    EXPECT_EQ(served.header("etag"), "\"" + hash + "\"");
    // No metadata left: no EXIF (GPS), XMP, ICC profile or comment.
    EXPECT_EQ(served.body.find("Exif"), std::string::npos);
    auto facts = inspectImage(served.body);
    EXPECT_EQ(facts.width, 1500);
    EXPECT_EQ(facts.height, 1000);
    EXPECT_FALSE(hasField(facts, "exif")) << "exif left";
    EXPECT_FALSE(hasField(facts, "GPS"));
    EXPECT_FALSE(hasField(facts, "xmp-data"));
    EXPECT_FALSE(hasField(facts, "icc-profile-data"));

    // Revalidation: 304 without a body for the same tag (strong, weak, in a list, or *).
    for (const std::string& tag : {"\"" + hash + "\"", "W/\"" + hash + "\"", "\"other\", \"" + hash + "\"", std::string("*")}) {
        auto again = get("/uploads/" + name, {{"If-None-Match", tag}});
        EXPECT_EQ(again.status, 304) << tag;
        EXPECT_TRUE(again.body.empty());
        EXPECT_EQ(again.header("etag"), "\"" + hash + "\"");
        EXPECT_EQ(again.header("cache-control"), "public, max-age=31536000, immutable");
    }
    EXPECT_EQ(get("/uploads/" + name, {{"If-None-Match", "\"" + std::string(64, '0') + "\""}}).status, 200);

    // Narrower copies, never upscaled: 320, 640, 1280 and the picture itself, each served alike.
    const auto srcset = image["srcset"].get<std::string>();
    auto list = candidates(srcset);
    ASSERT_EQ(list.size(), 4u) << srcset;
    std::vector<int> widths;
    for (const auto& [url, width] : list) {
        widths.push_back(width);
        auto copy = get(url);
        ASSERT_EQ(copy.status, 200) << url;
        EXPECT_EQ(copy.header("content-type"), "image/jpeg");
        EXPECT_EQ(copy.header("cache-control"), "public, max-age=31536000, immutable");
        EXPECT_EQ(copy.header("etag"), "\"" + sha256Hex(copy.body) + "\"");
        EXPECT_EQ(copy.body.find("Exif"), std::string::npos) << url;
        auto copyFacts = inspectImage(copy.body);
        EXPECT_EQ(copyFacts.width, width) << url;
        EXPECT_LE(copyFacts.width, 1500);
        EXPECT_EQ(copyFacts.height, (width * 1000 + 750) / 1500) << url;
    }
    EXPECT_EQ(widths, (std::vector<int>{320, 640, 1280, 1500}));
    EXPECT_EQ(list.back().first, "/uploads/" + name);

    // The same file again: the same picture, stored once.
    const auto rows = imageRows();
    auto again = upload(original, "image/jpeg");
    ASSERT_EQ(again.status, 201);
    EXPECT_EQ(again.json()["image"]["name"], name);
    EXPECT_EQ(imageRows(), rows);
    // Listed under uploads, with its srcset.
    auto library = getJson("/api/v1/admin/images", callers().admin).json();
    bool listed = false;
    for (const auto& i : library["images"])
        if (i["name"] == name) listed = i["folder"] == "uploads" && i["srcset"] == srcset;
    EXPECT_TRUE(listed);

    // A product showing it has the srcset in its public JSON.
    const auto slug = unique("pictured");
    auto created = postJson("/api/v1/admin/products",
                            {{"name", "Pictured " + slug}, {"slug", slug}, {"type", "physical"}, {"description", "<p>Hi</p>"},
                             {"picture_url", "/uploads/" + name}},
                            callers().admin);
    ASSERT_EQ(created.status, 201) << created.body;
    EXPECT_EQ(created.json()["product"]["picture_srcset"], srcset);
    auto product = getJson("/api/v1/products/" + slug);
    ASSERT_EQ(product.status, 200) << product.body;
    auto p = product.json().contains("product") ? product.json()["product"] : product.json();
    EXPECT_EQ(p["picture_url"], "/uploads/" + name);
    EXPECT_EQ(p["picture_srcset"], srcset);

    EXPECT_EQ(get("/uploads/../../etc/passwd").status, 404);
    EXPECT_EQ(get("/uploads/" + std::string(64, 'a') + ".png").status, 404);
    EXPECT_EQ(get("/uploads/" + hash + "-w999.jpg").status, 404);
    EXPECT_EQ(get("/uploads/evil.svg").status, 404);
}

TEST(AdminImagesApi, EachFormatKeepsItsFormatAndNothingIsUpscaled) {
    using storefront::catalog::inspectImage;
    // A small PNG with transparency: stays PNG with its alpha, no narrower copies.
    auto png = upload(picture(".png", 200, 100, 4), "image/png");
    ASSERT_EQ(png.status, 201) << png.body;
    auto pngImage = png.json()["image"];
    EXPECT_EQ(pngImage["name"].get<std::string>().substr(64), ".png");
    EXPECT_EQ(pngImage["srcset"], pngImage["url"].get<std::string>() + " 200w");
    auto servedPng = get(pngImage["url"].get<std::string>());
    EXPECT_EQ(servedPng.header("content-type"), "image/png");
    EXPECT_EQ(vips::VImage::new_from_buffer(servedPng.body.data(), servedPng.body.size(), "").bands(), 4);
    // A 700-wide WebP: WebP, with 320 and 640 only.
    auto webp = upload(picture(".webp", 700, 350), "image/webp");
    ASSERT_EQ(webp.status, 201) << webp.body;
    auto webpImage = webp.json()["image"];
    EXPECT_EQ(webpImage["name"].get<std::string>().substr(64), ".webp");
    std::vector<int> widths;
    for (const auto& [url, width] : candidates(webpImage["srcset"].get<std::string>())) {
        widths.push_back(width);
        auto served = get(url);
        EXPECT_EQ(served.header("content-type"), "image/webp");
        EXPECT_EQ(inspectImage(served.body).loader.substr(0, 8), "webpload");
    }
    EXPECT_EQ(widths, (std::vector<int>{320, 640, 700}));
}

TEST(AdminImagesApi, AnythingButAWholePngJpegOrWebpIs422AndNothingIsStored) {
    const auto audits = uploadAudits();
    const auto rows = imageRows();
    const auto jpeg = picture(".jpg", 300, 200);
    const auto png = picture(".png", 300, 200);
    std::string noise(4000, '\0');
    std::mt19937 random{7};
    for (auto& c : noise) c = static_cast<char>(random());
    struct Case {
        std::string what, bytes, type, code;
    };
    const std::vector<Case> cases = {
        {"a GIF typed as PNG", "GIF89a" + unique("gif"), "image/png", "unsupported_image"},
        {"SVG with script typed as PNG", "<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>",
         "image/png", "unsupported_image"},
        {"SVG", "<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "image/svg+xml", "unsupported_image"},
        {"HTML typed as JPEG", "<!doctype html><html><body><script>alert(1)</script></body></html>", "image/jpeg",
         "unsupported_image"},
        {"a PNG typed as GIF", png, "image/gif", "unsupported_image"},
        {"empty", "", "image/png", "unsupported_image"},
        {"text", "hello", "text/plain", "unsupported_image"},
        {"a truncated JPEG", jpeg.substr(0, jpeg.size() / 2), "image/jpeg", "invalid_image"},
        {"a truncated PNG", png.substr(0, png.size() / 2), "image/png", "invalid_image"},
        {"random bytes after a PNG signature", std::string("\x89PNG\r\n\x1a\n", 8) + noise, "image/png", "invalid_image"},
        {"random bytes after a JPEG marker", std::string("\xFF\xD8\xFF\xE0", 4) + noise, "image/jpeg", "invalid_image"},
        {"random bytes in a WebP wrapper", "RIFF" + std::string("\x10\x00\x00\x00", 4) + "WEBPVP8 " + noise, "image/webp",
         "invalid_image"},
        {"a decompression bomb", pngBomb(), "image/png", "image_too_large"},
        // Exactly the 5 MB limit reaches the decoder (it is not refused as too large a body).
        {"5 MB of noise after a PNG signature", std::string("\x89PNG\r\n\x1a\n", 8) + std::string(5 * 1024 * 1024 - 8, 'x'),
         "image/png", "invalid_image"},
    };
    for (const auto& c : cases) {
        auto res = upload(c.bytes, c.type);
        EXPECT_EQ(res.status, 422) << c.what << ": " << res.body;
        if (res.status != 422) continue;
        auto j = res.json();
        EXPECT_EQ(j["code"], c.code) << c.what;
        EXPECT_TRUE(j["fields"]["image"].is_string() && !j["fields"]["image"].get<std::string>().empty()) << c.what;
    }
    // Over 5 MB: refused before it is read.
    auto big = upload(std::string("\x89PNG\r\n\x1a\n", 8) + std::string(5 * 1024 * 1024, 'x'), "image/png");
    EXPECT_EQ(big.status, 413);
    EXPECT_EQ(uploadAudits(), audits);
    EXPECT_EQ(imageRows(), rows);
    // Other routes keep the server-wide limit.
    EXPECT_EQ(sendRaw("POST", "/api/v1/admin/products", std::string(200000, ' '), "application/json", callers().admin).status,
              413);
}

TEST(AdminImagesApi, TheOldUploadsFolderMovesIntoTheDatabaseOnce) {
    using storefront::catalog::inspectImage;
    const auto dataDir = fs::path(::testing::TempDir()) / unique("old-data");
    fs::create_directories(dataDir / "uploads");
    auto write = [](const fs::path& path, const std::string& bytes) {
        std::ofstream out(path, std::ios::binary);
        out << bytes;
    };
    // As the server before 0014 stored them: <sha256 of the file>.<ext>.
    const auto jpeg = jpegWithGps(900, 600);
    const auto jpegName = sha256Hex(jpeg) + ".jpg";
    const auto png = picture(".png", 120, 80);
    const auto pngName = sha256Hex(png) + ".png";
    const std::string broken = std::string("\x89PNG\r\n\x1a\n", 8) + "not really";
    const auto brokenName = sha256Hex(broken) + ".png";
    write(dataDir / "uploads" / jpegName, jpeg);
    write(dataDir / "uploads" / pngName, png);
    write(dataDir / "uploads" / brokenName, broken);
    write(dataDir / "uploads" / "notes.txt", "not a picture");
    // A product already shows the old JPEG.
    const auto slug = unique("old-picture");
    ASSERT_EQ(postJson("/api/v1/admin/products",
                       {{"name", "Old " + slug}, {"slug", slug}, {"type", "physical"}, {"description", "<p>Hi</p>"},
                        {"picture_url", "/uploads/" + jpegName}},
                       callers().admin)
                  .status,
              201);
    EXPECT_EQ(get("/uploads/" + jpegName).status, 404); // not in the database yet

    const auto rows = imageRows();
    const int first = serverWith({{"STOREFRONT_DATA_DIR", dataDir.string()}});
    // Under their old names, served by every server (this one never saw the folder), stripped.
    for (int port : {first, env().port}) {
        auto served = http(port, "GET", "/uploads/" + jpegName);
        ASSERT_EQ(served.status, 200);
        EXPECT_EQ(served.header("content-type"), "image/jpeg");
        EXPECT_EQ(served.header("etag"), "\"" + sha256Hex(served.body) + "\"");
        EXPECT_EQ(served.body.find("Exif"), std::string::npos);
        EXPECT_EQ(inspectImage(served.body).width, 900);
        EXPECT_EQ(http(port, "GET", "/uploads/" + pngName).status, 200);
        EXPECT_EQ(http(port, "GET", "/uploads/" + brokenName).status, 404);
    }
    // An upload made on one server is served by another on the same database (its own data folder).
    auto uploaded = upload(picture(".png", 64, 48), "image/png");
    ASSERT_EQ(uploaded.status, 201) << uploaded.body;
    const auto uploadedUrl = uploaded.json()["image"]["url"].get<std::string>();
    const auto here = get(uploadedUrl);
    auto there = http(first, "GET", uploadedUrl);
    EXPECT_EQ(there.status, 200);
    EXPECT_EQ(there.body, here.body);
    EXPECT_EQ(there.header("etag"), here.header("etag"));
    // Its 320 and 640 copies came along; the product's JSON has them.
    EXPECT_EQ(imageRows(), rows + 3 + 1 + 1);
    auto product = getJson("/api/v1/products/" + slug).json();
    auto p = product.contains("product") ? product["product"] : product;
    EXPECT_EQ(p["picture_srcset"], "/uploads/" + jpegName.substr(0, 64) + "-w320.jpg 320w, /uploads/" + jpegName.substr(0, 64) +
                                       "-w640.jpg 640w, /uploads/" + jpegName + " 900w");
    // The folder is renamed, with what could not move still in it.
    EXPECT_FALSE(fs::exists(dataDir / "uploads"));
    EXPECT_TRUE(fs::exists(dataDir / "uploads.moved-to-database" / brokenName));
    auto createdAt = [&] {
        auto session = env().db->session();
        return storefront::db::query(session, "SELECT CAST(created_at AS TEXT) FROM images WHERE name = ?").bind(jpegName).text();
    };
    const auto movedAt = createdAt();
    ASSERT_TRUE(movedAt.has_value());

    // A second start on that folder does nothing; nor does one that finds the files again (as if
    // the first had stopped before renaming the folder). What a start runs, run again here (a
    // test binary has threads for only a few extra servers).
    storefront::catalog::ImageStore again(*env().db, env().webDir, dataDir.string());
    EXPECT_EQ(again.moveInUploadsFolder(), 0u);
    fs::create_directories(dataDir / "uploads");
    write(dataDir / "uploads" / jpegName, jpeg);
    EXPECT_EQ(again.moveInUploadsFolder(), 0u);
    EXPECT_EQ(imageRows(), rows + 5);
    EXPECT_EQ(createdAt(), movedAt);
    EXPECT_FALSE(fs::exists(dataDir / "uploads"));
    EXPECT_EQ(http(first, "GET", "/uploads/" + jpegName).status, 200);
}
