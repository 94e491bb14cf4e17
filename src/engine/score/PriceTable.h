#pragma once

#include <QJsonObject>
#include <QList>
#include <QString>
#include <QStringView>

#include <optional>

namespace wl {

// How a provider caches prompts, for the cost model (issue 21).
enum class CacheProtocol {
    Anthropic, // explicit breakpoints (tools, system, last message): writes cost 1.25x input, reads 0.1x
    OpenAi,    // automatic prefix caching: reads at the cached-input price, no write charge
};
QString cacheProtocolName(CacheProtocol protocol); // "anthropic" | "openai"

// US dollars per million tokens.
struct Price
{
    double input = 0;
    double cachedInput = 0;
    double cacheWrite = 0;
    double output = 0;
    friend bool operator==(const Price &, const Price &) = default;
};

// Prices of the models in the model table, by the longest model-name prefix (as ModelTable matches),
// with the user's overrides on top (AppSettings::priceOverrides(), edited in Settings later).
class PriceTable
{
public:
    struct Entry
    {
        QString prefix;
        Price price;
        CacheProtocol protocol = CacheProtocol::OpenAi;
    };

    // The built-in table (sources and date in PriceTable.cpp).
    static PriceTable builtIn();

    // {"<model prefix>": {"input": x, "cached_input": x, "cache_write": x, "output": x}, ...}: each
    // replaces (or adds) the entry of that prefix; a missing field keeps the built-in value (for a new
    // prefix: 0). Entries that are not objects of numbers >= 0 are skipped and named in `problems`.
    void applyOverrides(const QJsonObject &overrides, QStringList *problems = nullptr);

    std::optional<Entry> lookup(QStringView model) const;
    const QList<Entry> &entries() const { return m_entries; }

    // The protocol a model is served by when the table does not know it: Anthropic for "claude*".
    static CacheProtocol protocolFor(QStringView model);

private:
    QList<Entry> m_entries;
};

} // namespace wl
