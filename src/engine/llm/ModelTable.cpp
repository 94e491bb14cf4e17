#include "ModelTable.h"

#include <array>

using namespace Qt::StringLiterals;

namespace wl::ModelTable {

namespace {
struct Row
{
    QLatin1StringView prefix;
    qint64 context;
    int maxOutput;
    // The family's point releases share the row: "gpt-5" is also "gpt-5.1" and "gpt-5.5".
    bool pointReleases = false;
};

// Claude's 1M-context variants, as Claude Code names them ("claude-sonnet-4-5[1m]").
constexpr QLatin1StringView kMillionSuffix = "[1m]"_L1;
constexpr qint64 kMillion = 1'000'000;

// Sources (checked 2025):
//  - OpenAI model pages, platform.openai.com/docs/models/<model> ("context window",
//    "max output tokens"): gpt-4o 128,000 / 16,384; gpt-4.1 family 1,047,576 / 32,768;
//    o1, o3, o3-mini, o4-mini 200,000 / 100,000; gpt-5 family 400,000 / 128,000;
//    gpt-4-turbo 128,000 / 4,096; gpt-4 8,192; gpt-3.5-turbo 16,385 / 4,096.
//  - Anthropic "Models overview" (docs.anthropic.com/en/docs/about-claude/models):
//    every Claude 3, 3.5, 3.7, 4 and 4.5 model has a 200,000 window (1M for Sonnet 4/4.5
//    only in beta, not assumed); max output: Opus 4 / 4.1 32,000, Sonnet 4 / 4.5,
//    Haiku 4.5, Opus 4.5 64,000, Sonnet 3.7 64,000, 3.5 models 8,192, Claude 3 4,096.
//    GPT-5 point releases (gpt-5.1, gpt-5.2, ...) keep the family's 400,000 / 128,000.
//  - Claude's 1M-context beta: a model id ending in "[1m]" (Claude Code's name for it) is the
//    same model with a 1,000,000 window.
//  - Ollama library pages (ollama.com/library/<model>, "context" in the model info)
//    and the model cards: llama3.1/3.2/3.3 131,072; llama3 8,192; qwen2.5 and
//    qwen2.5-coder 32,768; qwen3 40,960; gpt-oss 131,072; deepseek-r1 131,072;
//    gemma3 131,072 (the 1b variant 32,768); mistral 32,768; phi4 16,384.
// Note that Ollama runs a model with its own num_ctx (4,096 by default in
// current releases) unless configured: set the profile's context window to
// what the server really uses.
constexpr std::array kRows{
    Row{"gpt-4o-mini"_L1, 128000, 16384},
    Row{"gpt-4o"_L1, 128000, 16384},
    Row{"gpt-4.1"_L1, 1047576, 32768},
    Row{"gpt-4-turbo"_L1, 128000, 4096},
    Row{"gpt-4"_L1, 8192, 8192},
    Row{"gpt-3.5-turbo"_L1, 16385, 4096},
    Row{"gpt-5"_L1, 400000, 128000, true},
    Row{"gpt-oss"_L1, 131072, 131072},
    Row{"o1-mini"_L1, 128000, 65536},
    Row{"o1"_L1, 200000, 100000},
    Row{"o3"_L1, 200000, 100000},
    Row{"o4-mini"_L1, 200000, 100000},
    Row{"claude-opus-4-5"_L1, 200000, 64000},
    Row{"claude-opus-4-1"_L1, 200000, 32000},
    Row{"claude-opus-4"_L1, 200000, 32000},
    Row{"claude-sonnet-4-5"_L1, 200000, 64000},
    Row{"claude-sonnet-4"_L1, 200000, 64000},
    Row{"claude-haiku-4-5"_L1, 200000, 64000},
    Row{"claude-3-7-sonnet"_L1, 200000, 64000},
    Row{"claude-3-5-sonnet"_L1, 200000, 8192},
    Row{"claude-3-5-haiku"_L1, 200000, 8192},
    Row{"claude-3-opus"_L1, 200000, 4096},
    Row{"claude-3-haiku"_L1, 200000, 4096},
    Row{"llama3.1"_L1, 131072, 4096},
    Row{"llama3.2"_L1, 131072, 4096},
    Row{"llama3.3"_L1, 131072, 4096},
    Row{"llama3"_L1, 8192, 4096},
    Row{"qwen2.5"_L1, 32768, 8192},
    Row{"qwen3"_L1, 40960, 8192},
    Row{"deepseek-r1"_L1, 131072, 8192},
    Row{"gemma3:1b"_L1, 32768, 8192},
    Row{"gemma3"_L1, 131072, 8192},
    Row{"mistral"_L1, 32768, 4096},
    Row{"phi4"_L1, 16384, 4096},
};
} // namespace

std::optional<Entry> lookup(QStringView model)
{
    QStringView id = model.trimmed();
    const qsizetype slash = id.lastIndexOf(u'/');
    if (slash >= 0)
        id = id.sliced(slash + 1);
    const bool million = id.endsWith(kMillionSuffix, Qt::CaseInsensitive);
    if (million)
        id.chop(kMillionSuffix.size());
    const Row *best = nullptr;
    for (const Row &row : kRows) {
        if (!id.startsWith(row.prefix, Qt::CaseInsensitive))
            continue;
        // "gpt-4" must not claim "gpt-4o" or "gpt-4.1": the family name ends at a separator.
        if (id.size() > row.prefix.size()) {
            const QChar next = id.at(row.prefix.size());
            const bool pointRelease = row.pointReleases && next == u'.' && id.size() > row.prefix.size() + 1
                && id.at(row.prefix.size() + 1).isDigit();
            if (next != u'-' && next != u':' && next != u'_' && next != u'@' && !pointRelease)
                continue;
        }
        if (!best || row.prefix.size() > best->prefix.size())
            best = &row;
    }
    if (!best)
        return std::nullopt;
    if (million && best->prefix.startsWith("claude"_L1, Qt::CaseInsensitive))
        return Entry{kMillion, best->maxOutput};
    return Entry{best->context, best->maxOutput};
}

} // namespace wl::ModelTable
