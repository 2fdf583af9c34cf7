#include "CVips.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <vips/vips.h>
#include <vips/vector.h>

// Writes only our context: libvips' error buffer is shared by every thread, so with images
// decoded at once its text may belong to another image, and reasons must not depend on timing.
static int fail(char *error, size_t error_size, const char *context) {
    if (error && error_size > 0) snprintf(error, error_size, "%s", context);
    vips_error_clear();
    return -1;
}

// vips_init must not run on two threads at once, and a process may start libvips from more than
// one module (the thumbnailer and the sample images, both in the tests): one lock for them all.
// Seen: vips_block_untrusted_set asserting on a class another thread was still registering.
static GMutex starting;
static int started;

int artpipe_vips_init(const char *program_name, char *error, size_t error_size) {
    g_mutex_lock(&starting);
    int result = 0;
    if (!started) {
        if (VIPS_INIT(program_name ? program_name : "artpipe")) {
            result = fail(error, error_size, "cannot start libvips");
        } else {
            vips_block_untrusted_set(TRUE);
            // Every thumbnail has a different source: cached operations would only hold memory.
            vips_cache_set_max(0);
            started = 1;
        }
    }
    g_mutex_unlock(&starting);
    return result;
}

// Before 8.15, libvips vectorises with liborc: it generates a resize's code when it builds the
// resize and frees that code when the resize is finalised. liborc before 0.4.34 (Debian
// bookworm's 0.4.33) allocates and frees code memory without a lock, so two images built or
// dropped at once crashed a worker. Thumbnail pipelines (the only ones here that resize) are
// therefore built and dropped one thread at a time; their pixels, nearly all of a thumbnail's
// time, are still computed on every thread.
static GMutex pipelines;

static int build_thumbnail_of_buffer(const void *data, size_t length, int size, VipsImage **out) {
    g_mutex_lock(&pipelines);
    // fail_on reaches the buffer loader only through option_string.
    int result = vips_thumbnail_buffer((void *)data, length, out, size, "size", VIPS_SIZE_DOWN, "option_string",
                                       "fail_on=truncated", NULL);
    g_mutex_unlock(&pipelines);
    return result;
}

static int build_thumbnail_of_image(VipsImage *in, int size, VipsImage **out) {
    g_mutex_lock(&pipelines);
    int result = vips_thumbnail_image(in, out, size, "size", VIPS_SIZE_DOWN, NULL);
    g_mutex_unlock(&pipelines);
    return result;
}

static void drop(VipsImage *image) {
    g_mutex_lock(&pipelines);
    g_object_unref(image);
    g_mutex_unlock(&pipelines);
}

int artpipe_vips_loader(const void *data, size_t length, char *loader, size_t loader_size) {
    if (length == 0) return -1;
    const char *name = vips_foreign_find_load_buffer(data, length);
    vips_error_clear();
    if (!name) return -1;
    snprintf(loader, loader_size, "%s", name);
    return 0;
}

int artpipe_vips_header(const void *data, size_t length, int *width, int *height, char *error, size_t error_size) {
    // A new image from a buffer reads the header only; pixels are decoded on demand.
    VipsImage *image = vips_image_new_from_buffer(data, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
    if (!image) return fail(error, error_size, "unreadable header");
    *width = vips_image_get_width(image);
    *height = vips_image_get_height(image);
    g_object_unref(image);
    return 0;
}

// The mean of an encoded image's pixels in sRGB, packed as 0xRRGGBB; -1 for an image libvips
// cannot decode or take to sRGB. Decoded into memory first, outside the lock. The conversion
// and the statistics are built, computed and dropped under the pipelines' lock: they are not
// resizes, but whether liborc generates code for them is libvips' business, and on a thumbnail
// they hold the lock for about a millisecond. The same bytes give the same colour whichever
// call reads them.
int artpipe_vips_mean_colour(const void *data, size_t length) {
    VipsImage *encoded = vips_image_new_from_buffer(data, length, "", NULL);
    VipsImage *image = encoded ? vips_image_copy_memory(encoded) : NULL;
    if (encoded) g_object_unref(encoded);
    if (!image) {
        vips_error_clear();
        return -1;
    }
    VipsImage *srgb = NULL, *stats = NULL;
    int colour = -1;
    g_mutex_lock(&pipelines);
    if (vips_colourspace(image, &srgb, VIPS_INTERPRETATION_sRGB, NULL) == 0 && srgb->Bands >= 3 &&
        vips_stats(srgb, &stats, NULL) == 0) {
        colour = 0;
        // Row 0 of the statistics is every band together, row b + 1 band b; column 4 the mean.
        for (int band = 0; band < 3; band++) {
            double mean = *VIPS_MATRIX(stats, 4, band + 1);
            int channel = (int)(mean + 0.5);
            colour = colour << 8 | (channel < 0 ? 0 : channel > 255 ? 255 : channel);
        }
    }
    if (stats) g_object_unref(stats);
    if (srgb) g_object_unref(srgb);
    g_object_unref(image);
    g_mutex_unlock(&pipelines);
    vips_error_clear();
    return colour;
}

int artpipe_vips_thumbnails(const void *data, size_t length, const int *sizes, int count, const int *formats,
                            const int *qualities, int format_count, void **outputs, size_t *output_lengths,
                            int *widths, int *heights, int *colour, char *error, size_t error_size) {
    for (int i = 0; i < count * format_count; i++) outputs[i] = NULL;
    *colour = -1;
    VipsImage *largest = NULL;
    if (build_thumbnail_of_buffer(data, length, sizes[0], &largest)) return fail(error, error_size, "cannot decode");
    // Decoded once, into memory (the largest thumbnail's pixels, not the original's): every
    // size is made from these, none from another's JPEG. libvips decodes lazily, here:
    // damaged data fails at this point.
    VipsImage *decoded = vips_image_copy_memory(largest);
    drop(largest);
    if (!decoded) return fail(error, error_size, "damaged image data");
    int result = 0;
    for (int i = 0; i < count && result == 0; i++) {
        VipsImage *sized = decoded;
        if (i == 0) {
            g_object_ref(sized);
        } else if (build_thumbnail_of_image(decoded, sizes[i], &sized)) {
            result = -1;
            break;
        }
        for (int f = 0; f < format_count && result == 0; f++) {
            int at = i * format_count + f;
            if (formats[f] == 1) {
                result = vips_webpsave_buffer(sized, &outputs[at], &output_lengths[at], "Q", qualities[f], "strip",
                                              TRUE, NULL);
            } else {
                result = vips_jpegsave_buffer(sized, &outputs[at], &output_lengths[at], "Q", qualities[f], "strip",
                                              TRUE, "optimize_coding", TRUE, NULL);
            }
        }
        widths[i] = vips_image_get_width(sized);
        heights[i] = vips_image_get_height(sized);
        drop(sized);
        // From the largest thumbnail's bytes, as a manifest without a colour gets it later.
        if (i == 0 && result == 0) *colour = artpipe_vips_mean_colour(outputs[0], output_lengths[0]);
    }
    drop(decoded);
    if (result) {
        for (int i = 0; i < count * format_count; i++) {
            g_free(outputs[i]);
            outputs[i] = NULL;
        }
        return fail(error, error_size, "cannot encode the thumbnail");
    }
    return 0;
}

double artpipe_vips_psnr(const void *reference, size_t reference_length, const void *encoded, size_t encoded_length) {
    VipsImage *images[2] = {NULL, NULL}, *srgb[2] = {NULL, NULL}, *difference = NULL, *squared = NULL;
    const void *data[2] = {reference, encoded};
    size_t lengths[2] = {reference_length, encoded_length};
    double result = -1, mean = 0;
    for (int i = 0; i < 2; i++) {
        images[i] = vips_image_new_from_buffer(data[i], lengths[i], "", NULL);
        if (!images[i] || vips_colourspace(images[i], &srgb[i], VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    }
    if (srgb[0]->Xsize != srgb[1]->Xsize || srgb[0]->Ysize != srgb[1]->Ysize) goto done;
    g_mutex_lock(&pipelines);
    int failed = vips_subtract(srgb[0], srgb[1], &difference, NULL) ||
                 vips_multiply(difference, difference, &squared, NULL) || vips_avg(squared, &mean, NULL);
    g_mutex_unlock(&pipelines);
    if (failed) goto done;
    result = mean > 0 ? 10.0 * log10(255.0 * 255.0 / mean) : 99.0;
done:
    for (int i = 0; i < 2; i++) {
        if (images[i]) g_object_unref(images[i]);
        if (srgb[i]) g_object_unref(srgb[i]);
    }
    if (difference) g_object_unref(difference);
    if (squared) g_object_unref(squared);
    vips_error_clear();
    return result;
}

int artpipe_vips_make_image(int width, int height, int seed, const char *suffix, int quality, void **output,
                            size_t *output_length, char *error, size_t error_size) {
    VipsImage *noise = NULL, *bands = NULL, *pixels = NULL, *gradient = NULL, *mixed = NULL;
    int result = -1;
    // Noise compresses like a photograph's detail; a seed-dependent tint tells images apart.
    if (vips_gaussnoise(&noise, width, height, "mean", 128.0, "sigma", 40.0, "seed", seed, NULL)) goto done;
    VipsImage *channels[3] = {noise, noise, noise};
    if (vips_bandjoin(channels, &bands, 3, NULL)) goto done;
    double scale[3] = {1.0, 0.8, 0.6};
    double offset[3] = {(double)(seed % 64), (double)((seed * 7) % 64), (double)((seed * 13) % 64)};
    if (vips_linear(bands, &gradient, scale, offset, 3, NULL)) goto done;
    if (vips_cast(gradient, &pixels, VIPS_FORMAT_UCHAR, NULL)) goto done;
    if (vips_copy(pixels, &mixed, "interpretation", VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    char options[64];
    snprintf(options, sizeof options, "%s[Q=%d]", suffix, quality);
    if (strcmp(suffix, ".png") == 0 || strcmp(suffix, ".tif") == 0) snprintf(options, sizeof options, "%s", suffix);
    if (vips_image_write_to_buffer(mixed, options, output, output_length, NULL)) goto done;
    result = 0;
done:
    if (result) fail(error, error_size, "cannot make test image");
    if (noise) g_object_unref(noise);
    if (bands) g_object_unref(bands);
    if (gradient) g_object_unref(gradient);
    if (pixels) g_object_unref(pixels);
    if (mixed) g_object_unref(mixed);
    return result;
}

int artpipe_vips_make_painting(int width, int height, int seed, int quality, void **output, size_t *output_length,
                               char *error, size_t error_size) {
    VipsImage *xy = NULL, *x = NULL, *three = NULL, *scaled = NULL, *pixels = NULL, *coloured = NULL;
    int result = -1;
    // Bands (x, y, x) scaled to 0–255 with a seed-dependent offset: two diagonal gradients.
    if (vips_xyz(&xy, width, height, NULL)) goto done;
    if (vips_extract_band(xy, &x, 0, NULL)) goto done;
    VipsImage *bands[2] = {xy, x};
    if (vips_bandjoin(bands, &three, 2, NULL)) goto done;
    double scale[3] = {200.0 / width, 200.0 / height, -200.0 / width};
    double offset[3] = {(double)(seed % 56), (double)((seed / 7) % 56), 255.0 - (double)((seed / 49) % 56)};
    if (vips_linear(three, &scaled, scale, offset, 3, NULL)) goto done;
    if (vips_cast(scaled, &pixels, VIPS_FORMAT_UCHAR, NULL)) goto done;
    if (vips_copy(pixels, &coloured, "interpretation", VIPS_INTERPRETATION_sRGB, NULL)) goto done;
    char options[32];
    snprintf(options, sizeof options, ".jpg[Q=%d]", quality);
    if (vips_image_write_to_buffer(coloured, options, output, output_length, NULL)) goto done;
    result = 0;
done:
    if (result) fail(error, error_size, "cannot make sample image");
    if (xy) g_object_unref(xy);
    if (x) g_object_unref(x);
    if (three) g_object_unref(three);
    if (scaled) g_object_unref(scaled);
    if (pixels) g_object_unref(pixels);
    if (coloured) g_object_unref(coloured);
    return result;
}

void artpipe_vips_free(void *pointer) { g_free(pointer); }

const char *artpipe_vips_version(void) { return vips_version_string(); }

int artpipe_vips_vector_enabled(void) { return vips_vector_isenabled() ? 1 : 0; }

void artpipe_vips_set_threads_per_image(int threads) { vips_concurrency_set(threads > 0 ? threads : 1); }
