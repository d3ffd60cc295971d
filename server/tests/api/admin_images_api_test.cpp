// The image picker's list and staff uploads: type by content, size limit, long-cached serving.
#include "api/admin_support.h"

#include <gtest/gtest.h>

using namespace testing_support;

namespace {

const std::string kPngHeader("\x89PNG\r\n\x1a\n", 8);

std::string png(const std::string& salt) { return kPngHeader + "\0\0\0\rIHDR" + salt; }

std::int64_t uploadAudits() { return countRows("SELECT COUNT(*) FROM audit_log WHERE action = 'image.uploaded'"); }

} // namespace

TEST(AdminImagesApi, OnlyStaffAdmins) {
    expectStaffOnly("GET", "/api/v1/admin/images");
    const auto before = uploadAudits();
    for (const auto& h : {callers().visitor, callers().customer, callers().adminAal1})
        EXPECT_GE(sendRaw("POST", "/api/v1/admin/images", png(unique("x")), "image/png", h).status, 401);
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

TEST(AdminImagesApi, APngUploadIsStoredUnderItsHashAndServedWithLongCaching) {
    const auto bytes = png(unique("upload"));
    auto res = sendRaw("POST", "/api/v1/admin/images", bytes, "image/png", callers().admin);
    ASSERT_EQ(res.status, 201) << res.body;
    auto image = res.json()["image"];
    EXPECT_EQ(image["folder"], "uploads");
    const auto name = image["name"].get<std::string>();
    EXPECT_EQ(name.size(), 64u + 4u);
    EXPECT_EQ(name.substr(64), ".png");
    EXPECT_EQ(image["url"], "/uploads/" + name);
    EXPECT_EQ(auditCount("image.uploaded", name), 1);

    auto served = get("/uploads/" + name);
    ASSERT_EQ(served.status, 200);
    EXPECT_EQ(served.body, bytes);
    EXPECT_EQ(served.header("content-type"), "image/png");
    EXPECT_EQ(served.header("cache-control"), "public, max-age=31536000, immutable");
    EXPECT_EQ(served.header("x-content-type-options"), "nosniff");

    // The same bytes again: the same name.
    auto again = sendRaw("POST", "/api/v1/admin/images", bytes, "image/png", callers().admin);
    EXPECT_EQ(again.json()["image"]["name"], name);
    // It is listed under uploads.
    auto list = getJson("/api/v1/admin/images", callers().admin).json();
    bool listed = false;
    for (const auto& i : list["images"]) listed = listed || (i["name"] == name && i["folder"] == "uploads");
    EXPECT_TRUE(listed);
    // A JPEG is stored and served as one.
    auto jpeg = sendRaw("POST", "/api/v1/admin/images", std::string("\xFF\xD8\xFF\xE0", 4) + unique("jfif"), "image/jpeg",
                        callers().admin);
    ASSERT_EQ(jpeg.status, 201);
    EXPECT_EQ(jpeg.json()["image"]["name"].get<std::string>().substr(64), ".jpg");
    EXPECT_EQ(get("/uploads/" + jpeg.json()["image"]["name"].get<std::string>()).header("content-type"), "image/jpeg");

    EXPECT_EQ(get("/uploads/../../etc/passwd").status, 404);
    EXPECT_EQ(get("/uploads/" + std::string(64, 'a') + ".png").status, 404);
    EXPECT_EQ(get("/uploads/evil.svg").status, 404);
}

TEST(AdminImagesApi, AnythingButPngJpegOrWebpIsRefusedAndNothingIsStored) {
    const auto before = uploadAudits();
    const std::vector<std::pair<std::string, std::string>> cases = {
        {"GIF89a" + unique("gif"), "image/png"},                                          // a GIF renamed .png
        {"<svg xmlns=\"http://www.w3.org/2000/svg\"><script>alert(1)</script></svg>", "image/png"},
        {"<svg xmlns=\"http://www.w3.org/2000/svg\"/>", "image/svg+xml"},
        {png(unique("typed")), "image/gif"},
        {"", "image/png"},
        {"hello", "text/plain"},
    };
    for (const auto& [bytes, type] : cases) {
        auto res = sendRaw("POST", "/api/v1/admin/images", bytes, type, callers().admin);
        EXPECT_EQ(res.status, 422) << type << " " << res.body;
        if (res.status == 422) {
            EXPECT_EQ(res.json()["code"], "unsupported_image");
        }
    }
    // Over 5 MB.
    auto big = sendRaw("POST", "/api/v1/admin/images", kPngHeader + std::string(5 * 1024 * 1024, 'x'), "image/png",
                       callers().admin);
    EXPECT_EQ(big.status, 413);
    EXPECT_EQ(uploadAudits(), before);
    // Other routes keep the server-wide limit.
    EXPECT_EQ(sendRaw("POST", "/api/v1/admin/products", std::string(200000, ' '), "application/json", callers().admin).status,
              413);
}
