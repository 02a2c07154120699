// The floor under `tripsync merge A B -o OUT` for any engine that keeps TripSync's file format
// (gzip JSON, saved durably), measured to judge issue 30's ratio targets (docs/PERFORMANCE.md,
// "The format's floor"). It does only what the format itself asks, with fast kept libraries,
// and nothing a trip needs: no model, no schema, no merge, no re-encoding.
//
// - It reads A and B (one thread each) and inflates every gzip member (libdeflate, CRC-32
//   checked).
// - It parses, per `--parse`:
//   - `none`: nothing;
//   - `first`: A only (as if B's items were all byte-identical to A's and found without
//     parsing);
//   - `ondemand` (the default): both, with simdjson's On-Demand API, reading every field of
//     every item (strict JSON and UTF-8; no tape);
//   - `dom`: both, with simdjson's DOM parser.
// - It writes A's JSON in place of the merged document (the benchmark pair's merge is within
//   1% of its size) as gzip members of 1 MiB on both cores: libdeflate level 1, as TripSync
//   does, or `--compressor=isal` (ISA-L's igzip level 1; build with -DFLOOR_ISAL -lisal).
// - It saves the output durably: temp file, fsync, rename, fsync of the folder.
//
// Build and run (`tripsync-bench compare --floor PATH` runs it beside `tripsync merge`):
//   apt-get install -y g++ libsimdjson-dev libdeflate-dev   # and libisal-dev for -DFLOOR_ISAL
//   g++ -O2 -march=native -std=c++17 scripts/floor/merge-floor.cc -o /tmp/merge-floor -lsimdjson -ldeflate -lpthread
//   /tmp/merge-floor [--parse=MODE] [--compressor=libdeflate|isal] A.trip.json.gz B.trip.json.gz OUT.trip.json.gz
// It prints the items it read and, on standard error, the time of each phase.
#include <libdeflate.h>
#ifdef FLOOR_ISAL
#include <isa-l/igzip_lib.h>
#endif
#include <simdjson.h>
#include <fcntl.h>
#include <unistd.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <string>
#include <thread>
#include <vector>

static double now() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1e3 + t.tv_nsec / 1e6;
}

static void die(const char *what) { perror(what); exit(1); }

static std::vector<unsigned char> readFile(const char *path) {
    int fd = open(path, O_RDONLY);
    if (fd < 0) die(path);
    off_t size = lseek(fd, 0, SEEK_END);
    lseek(fd, 0, SEEK_SET);
    std::vector<unsigned char> bytes(size);
    for (off_t done = 0; done < size;) {
        ssize_t got = read(fd, bytes.data() + done, size - done);
        if (got <= 0) die("read");
        done += got;
    }
    close(fd);
    return bytes;
}

struct Inflated { char *json; size_t size; size_t items; };

enum class Parse { none, first, ondemand, dom };
static Parse parseMode = Parse::ondemand;

// Every item's every field: its rev's counter and device, and whether its value is a string.
static size_t touchOnDemand(char *json, size_t size, size_t capacity, size_t &items) {
    simdjson::ondemand::parser parser;
    simdjson::ondemand::document doc;
    if (parser.iterate(json, size, capacity).get(doc)) die("parse");
    size_t touched = 0;
    simdjson::ondemand::object root;
    if (doc.get_object().get(root)) die("root");
    for (auto entry : root) {
        std::string_view key;
        if (entry.unescaped_key().get(key)) die("key");
        if (key != "items") continue;  // On-Demand skips what is not read
        simdjson::ondemand::object all;
        if (entry.value().get_object().get(all)) die("items");
        for (auto item : all) {
            items++;
            simdjson::ondemand::object fields;
            if (item.value().get_object().get(fields)) die("item");
            for (auto field : fields) {
                simdjson::ondemand::object reg;
                if (field.value().get_object().get(reg)) die("register");
                for (auto part : reg) {
                    std::string_view name;
                    if (part.unescaped_key().get(name)) die("key");
                    if (name == "rev") {
                        simdjson::ondemand::array rev;
                        if (part.value().get_array().get(rev)) die("rev");
                        for (auto v : rev) {
                            simdjson::ondemand::json_type t;
                            if (v.type().get(t)) die("type");
                            if (t == simdjson::ondemand::json_type::number) touched += uint64_t(v.get_uint64()) & 1;
                            else touched += std::string_view(v.get_string()).size();
                        }
                    } else {
                        simdjson::ondemand::json_type t;
                        if (part.value().type().get(t)) die("type");
                        if (t == simdjson::ondemand::json_type::string) touched += std::string_view(part.value().get_string()).size();
                    }
                }
            }
        }
    }
    return touched;
}

static Inflated readTrip(const char *path, bool parses) {
    std::vector<unsigned char> gz = readFile(path);
    size_t capacity = gz.size() * 10 + simdjson::SIMDJSON_PADDING;
    char *out = (char *)malloc(capacity);
    libdeflate_decompressor *d = libdeflate_alloc_decompressor();
    size_t in = 0, produced = 0;
    while (in < gz.size()) {
        size_t used = 0, made = 0;
        if (libdeflate_gzip_decompress_ex(d, gz.data() + in, gz.size() - in, out + produced,
                                          capacity - produced - simdjson::SIMDJSON_PADDING, &used, &made) != LIBDEFLATE_SUCCESS)
            die("inflate");
        in += used; produced += made;
    }
    libdeflate_free_decompressor(d);
    size_t items = 0, touched = 0;
    if (!parses) return {out, produced, 0};
    if (parseMode != Parse::dom) {
        touched = touchOnDemand(out, produced, capacity, items);
        if (touched == 0) die("touched");
        return {out, produced, items};
    }
    simdjson::dom::parser parser;
    simdjson::dom::element doc;
    if (parser.parse(out, produced, false).get(doc)) die("parse");
    simdjson::dom::object all;
    if (doc["items"].get_object().get(all)) die("items");
    for (auto [id, item] : all) {
        items++;
        for (auto [field, reg] : item.get_object()) {
            simdjson::dom::array rev = reg["rev"].get_array();
            touched += uint64_t(rev.at(0)) & 1;
            touched += std::string_view(rev.at(1)).size();
            touched += reg["value"].type() == simdjson::dom::element_type::STRING;
        }
    }
    if (touched == 0) die("touched");
    return {out, produced, items};
}

int main(int argc, char **argv) {
    [[maybe_unused]] bool isal = false;
    while (argc > 4) {
        std::string option = argv[1];
        if (option == "--parse=none") parseMode = Parse::none;
        else if (option == "--parse=first") parseMode = Parse::first;
        else if (option == "--parse=ondemand") parseMode = Parse::ondemand;
        else if (option == "--parse=dom") parseMode = Parse::dom;
        else if (option == "--compressor=libdeflate") isal = false;
#ifdef FLOOR_ISAL
        else if (option == "--compressor=isal") isal = true;
#endif
        else break;
        argv++;
        argc--;
    }
    if (argc != 4) {
        fprintf(stderr, "usage: merge-floor [--parse=none|first|ondemand|dom] [--compressor=libdeflate|isal] A B OUT\n");
        return 2;
    }
    double start = now();
    Inflated a, b;
    std::thread tb([&] { b = readTrip(argv[2], parseMode == Parse::ondemand || parseMode == Parse::dom); });
    a = readTrip(argv[1], parseMode != Parse::none);
    tb.join();
    double read = now();
    // A's JSON stands in for the merged document; members of 1 MiB, two threads.
    const size_t member = 1 << 20;
    size_t count = (a.size + member - 1) / member;
    std::vector<std::pair<unsigned char *, size_t>> parts(count);  // malloc'd: no zero fill
    auto compress = [&](size_t first) {
#ifdef FLOOR_ISAL
        if (isal) {
            std::vector<uint8_t> levelBuffer(ISAL_DEF_LVL1_DEFAULT);
            for (size_t k = first; k < count; k += 2) {
                size_t n = std::min(member, a.size - k * member);
                size_t bound = n + n / 8 + (64 << 10);
                unsigned char *buffer = (unsigned char *)malloc(bound);
                if (buffer == nullptr) die("compress");
                isal_zstream stream;
                isal_deflate_init(&stream);
                stream.gzip_flag = IGZIP_GZIP;
                stream.level = 1;
                stream.level_buf = levelBuffer.data();
                stream.level_buf_size = levelBuffer.size();
                stream.next_in = (uint8_t *)a.json + k * member;
                stream.avail_in = n;
                stream.end_of_stream = 1;
                stream.flush = NO_FLUSH;
                stream.next_out = buffer;
                stream.avail_out = bound;
                if (isal_deflate_stateless(&stream) != COMP_OK) die("compress");
                parts[k] = {buffer, stream.total_out};
            }
            return;
        }
#endif
        libdeflate_compressor *c = libdeflate_alloc_compressor(1);
        for (size_t k = first; k < count; k += 2) {
            size_t n = std::min(member, a.size - k * member);
            size_t bound = libdeflate_gzip_compress_bound(c, n);
            unsigned char *buffer = (unsigned char *)malloc(bound);
            size_t size = libdeflate_gzip_compress(c, a.json + k * member, n, buffer, bound);
            if (buffer == nullptr || size == 0) die("compress");
            parts[k] = {buffer, size};
        }
        libdeflate_free_compressor(c);
    };
    std::thread t1(compress, 1);
    compress(0);
    t1.join();
    double compressed = now();
    std::string out = argv[3], temp = out + ".tmp";
    int fd = open(temp.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd < 0) die("open");
    for (auto &p : parts) if (write(fd, p.first, p.second) != (ssize_t)p.second) die("write");
    double written = now();
    if (fsync(fd) || close(fd)) die("fsync");
    double synced = now();
    if (rename(temp.c_str(), out.c_str())) die("rename");
    std::string dir = out.find('/') == std::string::npos ? "." : out.substr(0, out.rfind('/'));
    int dfd = open(dir.empty() ? "/" : dir.c_str(), O_RDONLY | O_DIRECTORY);
    if (dfd < 0 || fsync(dfd) || close(dfd)) die("fsync folder");
    double end = now();
    fprintf(stderr, "ms: read %.1f, compress %.1f, write %.1f, fsync %.1f, rename and folder fsync %.1f\n", read - start,
            compressed - read, written - compressed, synced - written, end - synced);
    printf("%zu + %zu items, %zu + %zu bytes of JSON\n", a.items, b.items, a.size, b.size);
    return 0;
}
