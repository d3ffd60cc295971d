#include "catalog/image_codec.h"

#include "catalog/image_store.h"
#include "common/fair_semaphore.h"

#include <Poco/Logger.h>

#include <vips/vips8>

#include <algorithm>
#include <atomic>
#include <memory>
#include <mutex>

using vips::VError;
using vips::VImage;

namespace storefront::catalog {

namespace {

// A libvips blob over bytes we own (no copy, nothing freed by libvips), released with the scope.
struct BlobDeleter {
    void operator()(VipsBlob* blob) const { vips_area_unref(VIPS_AREA(blob)); }
};
using Blob = std::unique_ptr<VipsBlob, BlobDeleter>;

Blob blobOver(std::string_view bytes) { return Blob(vips_blob_new(nullptr, bytes.data(), bytes.size())); }

std::string take(VipsBlob* blob) {
    Blob owned(blob);
    std::size_t length = 0;
    const void* data = vips_blob_get(blob, &length);
    return std::string(static_cast<const char*>(data), length);
}

const char* kNotAnImage = "This file is not a PNG, JPEG or WebP image. Upload a PNG, JPEG or WebP image.";
const char* kNotWhole = "This file could not be read as a whole image (it may be damaged or cut short). Upload it again "
                        "or export it afresh.";

// Loads the header only (pixels decode later, on demand). `failOn`: truncated or corrupt data is
// an error rather than grey pixels.
VImage loadHeader(const Blob& blob, const std::string& type) {
    auto* options = VImage::option()->set("access", VIPS_ACCESS_RANDOM)->set("fail_on", VIPS_FAIL_ON_WARNING);
    if (type == "jpg") return VImage::jpegload_buffer(blob.get(), options);
    if (type == "png") return VImage::pngload_buffer(blob.get(), options);
    return VImage::webpload_buffer(blob.get(), options);
}

// Upright, 8 or 16 bits per sample, sRGB (or grey): what every browser shows the same once the
// ICC profile is gone.
VImage normalise(VImage image) {
    image = image.autorot();
    if (image.get_typeof(VIPS_META_ICC_NAME) != 0) {
        try {
            image = image.icc_transform("srgb", VImage::option()->set("embedded", true)->set("intent", VIPS_INTENT_PERCEPTUAL));
        } catch (const VError&) {
            vips_error_clear(); // a broken profile: keep the pixels as they are
        }
    }
    const auto kind = image.interpretation();
    if (kind != VIPS_INTERPRETATION_sRGB && kind != VIPS_INTERPRETATION_B_W && kind != VIPS_INTERPRETATION_RGB16 &&
        kind != VIPS_INTERPRETATION_GREY16)
        image = image.colourspace(VIPS_INTERPRETATION_sRGB);
    return image;
}

// Re-encodes with every metadata item left out (strip).
std::string encode(const VImage& image, const std::string& type) {
    if (type == "jpg")
        return take(image.jpegsave_buffer(
            VImage::option()->set("strip", true)->set("Q", 85)->set("optimize_coding", true)->set("interlace", true)));
    if (type == "png") return take(image.pngsave_buffer(VImage::option()->set("strip", true)->set("compression", 6)));
    return take(image.webpsave_buffer(VImage::option()->set("strip", true)->set("Q", 85)->set("effort", 4)));
}

// libvips reports through GLib's log ("VIPS-WARNING **: not enough data" for a truncated upload),
// which writes to standard error on its own: into the server's log instead, with the request id.
void logFromVips(const gchar* domain, GLogLevelFlags level, const gchar* message, gpointer) {
    auto& log = Poco::Logger::get("catalog.images");
    const std::string text = std::string(domain ? domain : "glib") + ": " + (message ? message : "");
    if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) != 0) log.error(text);
    else if ((level & G_LOG_LEVEL_WARNING) != 0) log.warning(text);
    else log.debug(text);
}

common::FairSemaphore& decodeSlots() {
    static common::FairSemaphore slots(kConcurrentImageDecodes);
    return slots;
}

std::atomic<int> decodesRunning{0}, decodesPeak{0};

// One decode's slot, counted while it is held.
class DecodeSlot {
public:
    DecodeSlot() : permit_(decodeSlots().wait()) {
        const int now = ++decodesRunning;
        int peak = decodesPeak.load();
        while (now > peak && !decodesPeak.compare_exchange_weak(peak, now)) {
        }
    }
    ~DecodeSlot() { --decodesRunning; }
    DecodeSlot(const DecodeSlot&) = delete;
    DecodeSlot& operator=(const DecodeSlot&) = delete;

private:
    common::FairSemaphore::Permit permit_;
};

std::string millions(std::int64_t pixels) {
    const auto whole = pixels / 1'000'000, tenths = (pixels % 1'000'000) / 100'000;
    return std::to_string(whole) + (tenths ? "." + std::to_string(tenths) : "") + " million";
}

} // namespace

ImageDecodeStats imageDecodeStats() { return {decodesRunning.load(), decodesPeak.load()}; }

void resetImageDecodePeak() { decodesPeak = decodesRunning.load(); }

void startImageCodec() {
    static std::once_flag once;
    std::call_once(once, [] {
        if (VIPS_INIT("storefront") != 0) {
            std::string why = vips_error_buffer();
            vips_error_clear();
            throw std::runtime_error("libvips did not start: " + why);
        }
        // Every upload is new: an operation cache would only hold memory (and references to
        // request buffers) for nothing.
        vips_cache_set_max(0);
        vips_cache_set_max_mem(0);
        // Uploads are untrusted: only the loaders libvips marks safe for such input are usable.
        vips_block_untrusted_set(TRUE);
        // One worker per image: uploads are rare, and the server's cores are for its requests.
        vips_concurrency_set(1);
        g_log_set_handler("VIPS", static_cast<GLogLevelFlags>(G_LOG_LEVEL_MASK | G_LOG_FLAG_FATAL | G_LOG_FLAG_RECURSION),
                          logFromVips, nullptr);
    });
}

PreparedImage prepareImage(std::string_view bytes, std::int64_t maxPixels) {
    startImageCodec();
    const auto type = imageTypeOf(bytes);
    if (!type) throw ImageRejected("unsupported_image", kNotAnImage);
    PreparedImage out;
    out.extension = *type;
    out.contentType = imageContentType(*type);
    const auto blob = blobOver(bytes);
    VImage image;
    try {
        image = loadHeader(blob, *type);
    } catch (const VError&) {
        vips_error_clear();
        throw ImageRejected("invalid_image", kNotWhole);
    }
    if (const auto pixels = static_cast<std::int64_t>(image.width()) * image.height(); pixels > maxPixels)
        throw ImageRejected("image_too_large", "This image is " + std::to_string(image.width()) + " x " +
                                                   std::to_string(image.height()) + " pixels (" + millions(pixels) +
                                                   "), over the limit of " + millions(maxPixels) +
                                                   " pixels. Upload a smaller one.");
    // The pixels: at most kConcurrentImageDecodes uploads at once, the rest in turn.
    const DecodeSlot slot;
    try {
        // Every pixel decoded now: a truncated or corrupt file fails here, before anything is stored.
        image = normalise(image.copy_memory());
    } catch (const VError&) {
        vips_error_clear();
        throw ImageRejected("invalid_image", kNotWhole);
    }
    out.full = {image.width(), image.height(), encode(image, *type)};
    for (int width : kSrcsetWidths) {
        if (width >= image.width()) break;
        auto narrower = image.thumbnail_image(
            width, VImage::option()->set("height", VIPS_MAX_COORD)->set("size", VIPS_SIZE_DOWN)->set("no_rotate", true));
        out.widths.push_back({narrower.width(), narrower.height(), encode(narrower, *type)});
    }
    return out;
}

ImageFacts inspectImage(std::string_view bytes) {
    startImageCodec();
    ImageFacts facts;
    try {
        auto image = VImage::new_from_buffer(bytes.data(), bytes.size(), "",
                                              VImage::option()->set("access", VIPS_ACCESS_RANDOM)->set("fail_on", VIPS_FAIL_ON_WARNING));
        image = image.copy_memory();
        facts.width = image.width();
        facts.height = image.height();
        if (char** fields = vips_image_get_fields(image.get_image())) {
            for (char** f = fields; *f; ++f) facts.fields.emplace_back(*f);
            g_strfreev(fields);
        }
        const char* loader = nullptr;
        if (vips_image_get_string(image.get_image(), VIPS_META_LOADER, &loader) == 0 && loader) facts.loader = loader;
    } catch (const VError& e) {
        vips_error_clear();
        throw std::runtime_error(std::string("not an image: ") + e.what());
    }
    return facts;
}

} // namespace storefront::catalog
