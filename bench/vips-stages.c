// Times the stages of making a thumbnail with libvips' C API, as artpipe's shim makes them,
// per image over the files given: the header read, the decode with shrink-on-load to 400 px
// (kept in memory), the 400 px JPEG encode with and without optimize_coding, and the 200 px
// size made from the 400 px pixels and encoded. VECTOR=1 turns libvips' vector paths on
// (artpipe keeps them on), one libvips thread per image.
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <vips/vips.h>
// After vips.h, which it needs.
#include <vips/vector.h>

static double seconds(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return now.tv_sec + now.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    if (VIPS_INIT(argv[0])) return 1;
    vips_cache_set_max(0);
    vips_concurrency_set(1);
    vips_vector_set_enabled(getenv("VECTOR") != NULL);
    double header = 0, decode = 0, optimized = 0, plain = 0, smaller = 0, optimizedBytes = 0, plainBytes = 0;
    int images = 0;
    for (int i = 1; i < argc; i++) {
        gchar *data;
        gsize length;
        if (!g_file_get_contents(argv[i], &data, &length, NULL)) return 1;
        double start = seconds();
        VipsImage *probe = vips_image_new_from_buffer(data, length, "", "access", VIPS_ACCESS_SEQUENTIAL, NULL);
        if (!probe) return 1;
        g_object_unref(probe);
        double headed = seconds();
        VipsImage *thumbnail, *pixels, *small;
        if (vips_thumbnail_buffer(data, length, &thumbnail, 400, "size", VIPS_SIZE_DOWN, NULL)) return 1;
        pixels = vips_image_copy_memory(thumbnail);
        g_object_unref(thumbnail);
        if (!pixels) return 1;
        double decoded = seconds();
        void *output;
        size_t size;
        if (vips_jpegsave_buffer(pixels, &output, &size, "Q", 82, "strip", TRUE, "optimize_coding", TRUE, NULL))
            return 1;
        g_free(output);
        optimizedBytes += size;
        double encoded = seconds();
        if (vips_jpegsave_buffer(pixels, &output, &size, "Q", 82, "strip", TRUE, NULL)) return 1;
        g_free(output);
        plainBytes += size;
        double encodedPlain = seconds();
        if (vips_thumbnail_image(pixels, &small, 200, "size", VIPS_SIZE_DOWN, NULL)) return 1;
        if (vips_jpegsave_buffer(small, &output, &size, "Q", 82, "strip", TRUE, "optimize_coding", TRUE, NULL))
            return 1;
        g_free(output);
        g_object_unref(small);
        double done = seconds();
        header += headed - start;
        decode += decoded - headed;
        optimized += encoded - decoded;
        plain += encodedPlain - encoded;
        smaller += done - encodedPlain;
        images++;
        g_object_unref(pixels);
        g_free(data);
    }
    printf("libvips %s, vector paths %s, %d images, ms per image: header %.2f | decode to 400 px %.1f | "
           "encode 400 px %.2f (optimize_coding), %.2f (without), %.1f%% smaller | 200 px from those pixels, "
           "encoded %.2f\n",
           vips_version_string(), getenv("VECTOR") ? "on" : "off", images, header * 1e3 / images,
           decode * 1e3 / images, optimized * 1e3 / images, plain * 1e3 / images, 100 * (1 - optimizedBytes / plainBytes),
           smaller * 1e3 / images);
    return 0;
}
