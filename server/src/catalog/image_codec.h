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
// before any pixel is decoded: at most this many pixels by default (STOREFRONT_IMAGE_MAX_PIXELS;
// e.g. 8000 x 5000 is 40 million).
inline constexpr std::int64_t kDefaultMaxImagePixels = 40'000'000;
// Decodes (and their re-encoding) running at once in the process; the others wait their turn in
// the order they came (common::FairSemaphore): a 40-megapixel 16-bit image is 240 MB decoded, so
// this bounds an upload burst's memory.
inline constexpr int kConcurrentImageDecodes = 2;

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
// ImageRejected when it is not a whole image of those types or has more than `maxPixels` pixels
// (told from its header, before any pixel is decoded; the message names the limit).
PreparedImage prepareImage(std::string_view bytes, std::int64_t maxPixels = kDefaultMaxImagePixels);

// Decodes running now and the most that ran at once since the last reset (tests and diagnostics).
struct ImageDecodeStats {
    int running = 0, peak = 0;
};
ImageDecodeStats imageDecodeStats();
void resetImageDecodePeak();

// Whether `bytes` decode as an image, and its metadata fields (tests and diagnostics: "exif-data",
// "xmp-data", "icc-profile-data", ...), its width and height.
struct ImageFacts {
    int width = 0, height = 0;
    std::vector<std::string> fields;
    std::string loader;
};
ImageFacts inspectImage(std::string_view bytes);

} // namespace storefront::catalog
