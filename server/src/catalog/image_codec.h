#pragma once
// Checking and preparing an uploaded picture with libvips (docs/backoffice.md, "Images"): it is
// decoded whole before anything is stored, turned upright and into sRGB, stripped of its metadata
// (EXIF with GPS, XMP, IPTC, ICC profile, comments) by re-encoding, and also made in a few narrower
// widths for `srcset`. The output keeps the source format (JPEG stays JPEG, PNG stays PNG with its
// transparency, WebP stays WebP).
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace storefront::catalog {

// The narrower copies made of each upload (only those below its own width: never upscaled).
inline constexpr int kSrcsetWidths[] = {320, 640, 1280};
// A decompression bomb (a small file that decodes to a huge bitmap) is refused from its header,
// before any pixel is decoded: at most this many pixels (e.g. 6000 x 4000 is 24 million).
inline constexpr std::int64_t kMaxImagePixels = 25'000'000;

// Starts libvips once for the process (any thread, any number of times). Called at server start;
// the codec also calls it itself.
void startImageCodec();

// Why an upload was refused: the API code and a message for the "image" field.
struct ImageRejected : std::runtime_error {
    ImageRejected(std::string code, const std::string& message) : std::runtime_error(message), code(std::move(code)) {}
    std::string code; // unsupported_image | invalid_image | image_too_large
};

struct EncodedImage {
    int width = 0, height = 0;
    std::string bytes;
};

struct PreparedImage {
    std::string extension;   // jpg | png | webp
    std::string contentType; // image/jpeg | image/png | image/webp
    EncodedImage full;                 // the whole picture, metadata removed
    std::vector<EncodedImage> widths;  // narrower copies, narrowest first
};

// Decodes `bytes` (PNG, JPEG or WebP by their first bytes) and prepares what is stored. Throws
// ImageRejected when it is not a whole image of those types or has too many pixels.
PreparedImage prepareImage(std::string_view bytes);

// Whether `bytes` decode as an image, and its metadata fields (tests and diagnostics: "exif-data",
// "xmp-data", "icc-profile-data", ...), its width and height.
struct ImageFacts {
    int width = 0, height = 0;
    std::vector<std::string> fields;
    std::string loader;
};
ImageFacts inspectImage(std::string_view bytes);

} // namespace storefront::catalog
