// A small C shim over libvips: Swift cannot call its variadic API. Plain C types only.
#ifndef ARTPIPE_CVIPS_H
#define ARTPIPE_CVIPS_H

#include <stddef.h>

/// Starts libvips once per process and blocks its untrusted loaders. Returns 0 on success.
int artpipe_vips_init(const char *program_name, char *error, size_t error_size);

/// The class of the libvips loader that would read the buffer (for example
/// "VipsForeignLoadJpegBuffer"), from its first bytes. Returns 0 when one is found.
int artpipe_vips_loader(const void *data, size_t length, char *loader, size_t loader_size);

/// Reads the size from the header, decoding no pixels. Returns 0 on success.
int artpipe_vips_header(const void *data, size_t length, int *width, int *height, char *error, size_t error_size);

/// Thumbnails an image held in memory at every size of `sizes` (largest first, `count` of
/// them), decoding it once: shrink-on-load to the largest, its pixels kept in memory, each
/// smaller size made from those pixels (never from another size's JPEG). Each is encoded in
/// every one of `formats` (0 JPEG, 1 WebP; `format_count` of them) at its `qualities`: size i's
/// format f is `outputs[i * format_count + f]`. `colour` gets artpipe_vips_mean_colour of the
/// largest size's first format's bytes. Truncated input fails. On success the caller frees each
/// output with artpipe_vips_free. Returns 0 on success.
int artpipe_vips_thumbnails(const void *data, size_t length, const int *sizes, int count, const int *formats,
                            const int *qualities, int format_count, void **outputs, size_t *output_lengths,
                            int *widths, int *heights, int *colour, char *error, size_t error_size);

/// The mean of an encoded image's pixels in sRGB as 0xRRGGBB; -1 for an image it cannot decode or
/// take to sRGB. Decodes at full size: give it thumbnails, not what a host sent.
int artpipe_vips_mean_colour(const void *data, size_t length);
/// The peak signal-to-noise ratio, in dB, of `encoded` against `reference`, two encoded images of
/// one size, over their sRGB bands (99 for the same pixels); -1 when either cannot be read or
/// their sizes differ. For benchmarks weighing one encoding against another.
double artpipe_vips_psnr(const void *reference, size_t reference_length, const void *encoded, size_t encoded_length);
/// Makes a noisy colour test image of the given size, encoded by suffix (".jpg", ".png",
/// ".webp", ".tif"), for tests, benchmarks and the sample collection. Free with artpipe_vips_free.
int artpipe_vips_make_image(int width, int height, int seed, const char *suffix, int quality, void **output,
                            size_t *output_length, char *error, size_t error_size);

/// Makes a smooth colour image (gradients in a seed-dependent palette) as a JPEG: cheap to
/// make and to decode, for the sample collection. Free with artpipe_vips_free.
int artpipe_vips_make_painting(int width, int height, int seed, int quality, void **output, size_t *output_length,
                               char *error, size_t error_size);

void artpipe_vips_free(void *pointer);

/// The version of the libvips the process loaded ("8.16.1"), not the one it was built with.
const char *artpipe_vips_version(void);

/// 1 when libvips' vector (SIMD) paths are on: Highway's from libvips 8.15, liborc's before
/// (pipelines are then built and dropped one thread at a time), unless VIPS_NOVECTOR is set.
int artpipe_vips_vector_enabled(void);

/// The threads libvips gives each image it makes (`vips_concurrency_set`).
void artpipe_vips_set_threads_per_image(int threads);

#endif
