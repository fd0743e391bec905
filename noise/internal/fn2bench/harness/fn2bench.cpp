// fn2bench times FastNoise2's fBm on a uniform 2-D grid, one thread, and
// prints the CPU time per sample-octave, so that Cordillera's own fBm
// benchmarks can be read against it. It is built against FastNoise2's
// sources by the Go test beside it (see README.md); nothing of FastNoise2
// is kept in this repository.
//
// Usage: fn2bench BASIS FEATURESET SIZE OCTAVES REPS
//   BASIS       perlin | simplex | worley (F1) | worleyedge (F2 − F1)
//   FEATURESET  avx512 | avx2 (the highest SIMD level FastNoise2 may use)
// Output, one line per repetition:
//   fn2 BASIS FEATURESET ACTIVE ns/sample-octave=X ms=Y checksum=Z
// where ACTIVE is the level FastNoise2 actually ran (it falls back when the
// CPU lacks the one asked for) and the checksum keeps the work observable.

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <vector>

#include "FastNoise/FastNoise.h"

namespace {

double cpuSeconds() {
    timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + 1e-9 * double(ts.tv_nsec);
}

const char* levelName(FastSIMD::FeatureSet s) {
    switch (s) {
    case FastSIMD::FeatureSet::AVX512: return "avx512";
    case FastSIMD::FeatureSet::AVX2: return "avx2";
    case FastSIMD::FeatureSet::SSE41: return "sse41";
    case FastSIMD::FeatureSet::SSE2: return "sse2";
    default: return "other";
    }
}

int usage() {
    std::fprintf(stderr, "usage: fn2bench perlin|simplex|worley|worleyedge avx512|avx2 SIZE OCTAVES REPS\n");
    return 2;
}

} // namespace

int main(int argc, char** argv) {
    if (argc != 6) return usage();
    const char* basis = argv[1];
    FastSIMD::FeatureSet level;
    if (std::strcmp(argv[2], "avx512") == 0) level = FastSIMD::FeatureSet::AVX512;
    else if (std::strcmp(argv[2], "avx2") == 0) level = FastSIMD::FeatureSet::AVX2;
    else return usage();
    int size = std::atoi(argv[3]), octaves = std::atoi(argv[4]), reps = std::atoi(argv[5]);
    if (size < 1 || octaves < 1 || octaves > 16 || reps < 1) return usage();

    FastNoise::SmartNode<> source;
    if (std::strcmp(basis, "perlin") == 0) {
        source = FastNoise::New<FastNoise::Perlin>(level);
    } else if (std::strcmp(basis, "simplex") == 0) {
        source = FastNoise::New<FastNoise::Simplex>(level);
    } else if (std::strcmp(basis, "worley") == 0 || std::strcmp(basis, "worleyedge") == 0) {
        auto c = FastNoise::New<FastNoise::CellularDistance>(level);
        c->SetDistanceFunction(FastNoise::DistanceFunction::Euclidean);
        if (std::strcmp(basis, "worleyedge") == 0) {
            c->SetDistanceIndex0(0);
            c->SetDistanceIndex1(1);
            c->SetReturnType(FastNoise::CellularDistance::ReturnType::Index0Sub1);
        }
        source = c;
    } else {
        return usage();
    }
    auto fbm = FastNoise::New<FastNoise::FractalFBm>(level);
    fbm->SetSource(source);
    fbm->SetOctaveCount(octaves);
    fbm->SetGain(0.5f);
    fbm->SetLacunarity(2.0f);

    // The largest features span a quarter of the map, like Cordillera's
    // default; FastNoise2's cost per sample does not depend on the scale.
    std::vector<float> out(size_t(size) * size_t(size));
    const float step = 4.0f / float(size);
    for (int r = 0; r < reps; r++) {
        double t0 = cpuSeconds();
        fbm->GenUniformGrid2D(out.data(), 0, 0, size, size, step * 100, step * 100, 1337 + r);
        double t = cpuSeconds() - t0;
        double sum = 0;
        for (float v : out) sum += v;
        std::printf("fn2 %s %s %s ns/sample-octave=%.4f ms=%.3f checksum=%.6g\n", basis, argv[2],
                    levelName(fbm->GetActiveFeatureSet()), 1e9 * t / (double(size) * size * octaves), 1e3 * t, sum);
    }
    return 0;
}
