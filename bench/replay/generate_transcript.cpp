// Writes a generated Claude Code transcript (tests/support/GeneratedTranscript) for measuring by
// hand, e.g. the GUI's memory on a 10k-exchange session (docs/ARCHITECTURE.md, "Memory"):
//   generate_transcript FILE EXCHANGES [SEED]
#include "GeneratedTranscript.h"

#include <QString>

#include <cstdio>
#include <cstdlib>

int main(int argc, char **argv)
{
    if (argc < 3 || std::atoi(argv[2]) <= 0) {
        std::fprintf(stderr, "usage: generate_transcript FILE EXCHANGES [SEED]\n");
        return 2;
    }
    const quint32 seed = argc > 3 ? quint32(std::strtoul(argv[3], nullptr, 10)) : 31;
    const qint64 bytes = wl::test::writeClaudeCodeTranscript(QString::fromLocal8Bit(argv[1]), std::atoi(argv[2]), seed);
    if (bytes < 0) {
        std::fprintf(stderr, "generate_transcript: cannot write %s\n", argv[1]);
        return 1;
    }
    std::printf("%lld bytes\n", static_cast<long long>(bytes));
    return 0;
}
