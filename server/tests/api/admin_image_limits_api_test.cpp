// Issue 32: image uploads decode at most STOREFRONT_IMAGE_MAX_PIXELS (40 million by default),
// told from the header before any pixel is decoded (422 image_too_large naming the limit), and at
// most two decodes run at once in the server, the others waiting their turn in order.
#include "api/admin_support.h"
#include "catalog/image_codec.h"

#include <gtest/gtest.h>

#include <vips/vips8>

#include <chrono>
#include <iostream>
#include <thread>
#include <vector>

using namespace testing_support;

namespace image_limits_test {

// A black 16-bit RGB PNG of `width` x `height`: tiny as a file, `width * height * 6` bytes decoded.
std::string blackPng16(int width, int height) {
    storefront::catalog::startImageCodec();
    auto image = vips::VImage::black(width, height, vips::VImage::option()->set("bands", 3))
                     .cast(VIPS_FORMAT_USHORT)
                     .copy(vips::VImage::option()->set("interpretation", VIPS_INTERPRETATION_RGB16));
    void* buffer = nullptr;
    std::size_t size = 0;
    image.write_to_buffer(".png", &buffer, &size);
    std::string out(static_cast<const char*>(buffer), size);
    g_free(buffer);
    return out;
}

HttpResult uploadTo(int port, const std::string& png) {
    auto h = callers().admin;
    h["Content-Type"] = "image/png";
    return http(port, "POST", "/api/v1/admin/images", png, h);
}

} // namespace image_limits_test

using namespace image_limits_test;

TEST(ImageLimits, MorePixelsThanTheLimitAreRefusedFromTheHeaderNamingTheLimit) {
    const int port = serverWith({{"STOREFRONT_IMAGE_MAX_PIXELS", "1000000"}});
    const auto over = uploadTo(port, blackPng16(1200, 1000));
    ASSERT_EQ(over.status, 422) << over.body;
    const auto j = over.json();
    EXPECT_EQ(j["code"], "image_too_large");
    const std::string message = j["fields"]["image"];
    EXPECT_NE(message.find("1200 x 1000"), std::string::npos) << message;
    EXPECT_NE(message.find("over the limit of 1 million pixels"), std::string::npos) << message;
    // At the limit it is decoded and stored.
    EXPECT_EQ(uploadTo(port, blackPng16(1000, 1000)).status, 201);
}

TEST(ImageLimits, AtMostTwoDecodesRunAtOnceTheOthersWaitTheirTurn) {
    // Four uploads at once of a 9-megapixel 16-bit PNG (54 MB decoded each).
    std::vector<std::string> pictures;
    for (int i = 0; i < 4; ++i) pictures.push_back(blackPng16(3000 + i, 3000)); // each a new upload
    storefront::catalog::resetImageDecodePeak();
    std::vector<int> statuses(pictures.size(), 0);
    std::vector<std::thread> uploads;
    const auto t0 = std::chrono::steady_clock::now();
    for (std::size_t i = 0; i < pictures.size(); ++i)
        uploads.emplace_back([&, i] { statuses[i] = uploadTo(env().port, pictures[i]).status; });
    for (auto& t : uploads) t.join();
    const auto seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    for (const int status : statuses) EXPECT_EQ(status, 201);
    const auto stats = storefront::catalog::imageDecodeStats();
    std::cout << "image decodes: 4 parallel 9-megapixel 16-bit uploads in " << seconds << " s, at most " << stats.peak
              << " decoding at once\n";
    EXPECT_LE(stats.peak, storefront::catalog::kConcurrentImageDecodes);
    EXPECT_GE(stats.peak, 1);
    EXPECT_EQ(stats.running, 0);
}
