#include "PriceTable.h"

#include <QJsonValue>

#include <cmath>

using namespace Qt::StringLiterals;

namespace wl {

QString cacheProtocolName(CacheProtocol protocol)
{
    return protocol == CacheProtocol::Anthropic ? u"anthropic"_s : u"openai"_s;
}

namespace {

struct Row
{
    const char16_t *prefix;
    double input, cachedInput, cacheWrite, output;
};

// US$ per million tokens, as published on 2025-11-30:
//  - Anthropic, "Pricing" (docs.claude.com/en/docs/about-claude/pricing): base input, 5-minute
//    cache writes (1.25x input), cache hits (0.1x input), output.
//  - OpenAI, "Pricing" (platform.openai.com/docs/pricing, standard tier): input, cached input,
//    output; no charge for writing the cache. Models without a cached price read at the input price.
//  - Local models (Ollama and the like) cost nothing per token.
constexpr Row kAnthropic[] = {
    {u"claude-opus-4-5", 5.00, 0.50, 6.25, 25.00},
    {u"claude-opus-4-1", 15.00, 1.50, 18.75, 75.00},
    {u"claude-opus-4", 15.00, 1.50, 18.75, 75.00},
    {u"claude-sonnet-4-5", 3.00, 0.30, 3.75, 15.00},
    {u"claude-sonnet-4", 3.00, 0.30, 3.75, 15.00},
    {u"claude-haiku-4-5", 1.00, 0.10, 1.25, 5.00},
    {u"claude-3-7-sonnet", 3.00, 0.30, 3.75, 15.00},
    {u"claude-3-5-sonnet", 3.00, 0.30, 3.75, 15.00},
    {u"claude-3-5-haiku", 0.80, 0.08, 1.00, 4.00},
    {u"claude-3-opus", 15.00, 1.50, 18.75, 75.00},
    {u"claude-3-haiku", 0.25, 0.03, 0.30, 1.25},
};
constexpr Row kOpenAi[] = {
    {u"gpt-4o-mini", 0.15, 0.075, 0, 0.60},
    {u"gpt-4o", 2.50, 1.25, 0, 10.00},
    {u"gpt-4.1-nano", 0.10, 0.025, 0, 0.40},
    {u"gpt-4.1-mini", 0.40, 0.10, 0, 1.60},
    {u"gpt-4.1", 2.00, 0.50, 0, 8.00},
    {u"gpt-4-turbo", 10.00, 10.00, 0, 30.00},
    {u"gpt-4", 30.00, 30.00, 0, 60.00},
    {u"gpt-3.5-turbo", 0.50, 0.50, 0, 1.50},
    {u"gpt-5-nano", 0.05, 0.005, 0, 0.40},
    {u"gpt-5-mini", 0.25, 0.025, 0, 2.00},
    {u"gpt-5", 1.25, 0.125, 0, 10.00},
    {u"o1-mini", 1.10, 0.55, 0, 4.40},
    {u"o1", 15.00, 7.50, 0, 60.00},
    {u"o3", 2.00, 0.50, 0, 8.00},
    {u"o4-mini", 1.10, 0.275, 0, 4.40},
    // Local models served by Ollama or another OpenAI-compatible server on this machine.
    {u"gpt-oss", 0, 0, 0, 0},
    {u"llama3", 0, 0, 0, 0},
    {u"qwen2.5", 0, 0, 0, 0},
    {u"qwen3", 0, 0, 0, 0},
    {u"deepseek-r1", 0, 0, 0, 0},
    {u"gemma3", 0, 0, 0, 0},
    {u"mistral", 0, 0, 0, 0},
    {u"phi4", 0, 0, 0, 0},
};

QStringView modelId(QStringView model)
{
    QStringView id = model.trimmed();
    if (const qsizetype slash = id.lastIndexOf(u'/'); slash >= 0)
        id = id.sliced(slash + 1);
    return id;
}

} // namespace

PriceTable PriceTable::builtIn()
{
    PriceTable table;
    for (const Row &r : kAnthropic)
        table.m_entries.append({QString::fromUtf16(r.prefix), {r.input, r.cachedInput, r.cacheWrite, r.output}, CacheProtocol::Anthropic});
    for (const Row &r : kOpenAi)
        table.m_entries.append({QString::fromUtf16(r.prefix), {r.input, r.cachedInput, r.cacheWrite, r.output}, CacheProtocol::OpenAi});
    return table;
}

CacheProtocol PriceTable::protocolFor(QStringView model)
{
    return modelId(model).startsWith(u"claude", Qt::CaseInsensitive) ? CacheProtocol::Anthropic : CacheProtocol::OpenAi;
}

void PriceTable::applyOverrides(const QJsonObject &overrides, QStringList *problems)
{
    for (auto it = overrides.begin(); it != overrides.end(); ++it) {
        const QString prefix = it.key().trimmed();
        const QJsonObject o = it.value().toObject();
        bool ok = !prefix.isEmpty() && it.value().isObject();
        Entry *entry = nullptr;
        for (Entry &e : m_entries) {
            if (e.prefix.compare(prefix, Qt::CaseInsensitive) == 0)
                entry = &e;
        }
        Entry fresh{prefix, {}, protocolFor(prefix)};
        Price price = entry ? entry->price : fresh.price;
        const std::pair<const char16_t *, double *> fields[] = {{u"input", &price.input},
                                                                {u"cached_input", &price.cachedInput},
                                                                {u"cache_write", &price.cacheWrite},
                                                                {u"output", &price.output}};
        for (const auto &[name, target] : fields) {
            const QJsonValue v = o.value(QString::fromUtf16(name));
            if (v.isUndefined())
                continue;
            if (!v.isDouble() || !std::isfinite(v.toDouble()) || v.toDouble() < 0) {
                ok = false;
                break;
            }
            *target = v.toDouble();
        }
        if (!ok) {
            if (problems)
                problems->append(it.key());
            continue;
        }
        if (entry) {
            entry->price = price;
        } else {
            fresh.price = price;
            m_entries.append(fresh);
        }
    }
}

std::optional<PriceTable::Entry> PriceTable::lookup(QStringView model) const
{
    const QStringView id = modelId(model);
    const Entry *best = nullptr;
    for (const Entry &e : m_entries) {
        if (!id.startsWith(e.prefix, Qt::CaseInsensitive))
            continue;
        // "gpt-4" must not claim "gpt-4o": the family name ends at a separator, as in ModelTable.
        if (id.size() > e.prefix.size()) {
            const QChar next = id.at(e.prefix.size());
            if (next != u'-' && next != u':' && next != u'_' && next != u'@' && next != u'.')
                continue;
        }
        if (!best || e.prefix.size() > best->prefix.size())
            best = &e;
    }
    if (!best)
        return std::nullopt;
    return *best;
}

} // namespace wl
