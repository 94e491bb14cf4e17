#include "ProviderProfile.h"

#include "ModelTable.h"
#include "model/BoundedInteger.h"

#include <QCoreApplication>
#include <QJsonValue>
#include <QRegularExpression>

#include <limits>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
bool fail(QString *error, const QString &text)
{
    if (error)
        *error = text;
    return false;
}

// A key reference names a variable or a keychain entry; something shaped like a
// credential (long, no separators, or a known key prefix) is refused.
bool looksLikeSecret(const QString &ref)
{
    static const QRegularExpression keyShape(uR"(^(sk-|sk_|xai-|gsk_|AIza)|^[A-Za-z0-9+/=_\-]{32,}$)"_s);
    return keyShape.match(ref).hasMatch() && !ref.contains(u'/') && ref.toUpper() != ref;
}
} // namespace

qint64 ProviderProfile::effectiveContextWindow() const
{
    if (contextWindow > 0)
        return contextWindow;
    if (const auto entry = ModelTable::lookup(model))
        return entry->contextWindow;
    return 8192;
}

CompactionPolicy ProviderProfile::sizedPolicy(const CompactionPolicy &policy) const
{
    CompactionPolicy sized = policy;
    if (sized.contextWindow == CompactionPolicy().contextWindow)
        sized.contextWindow = effectiveContextWindow();
    return sized;
}

int ProviderProfile::effectiveMaxOutputTokens() const
{
    if (maxOutputTokens > 0)
        return maxOutputTokens;
    if (const auto entry = ModelTable::lookup(model))
        return entry->maxOutputTokens;
    return 4096;
}

QString ProviderProfile::protocolName(Protocol protocol)
{
    return protocol == Protocol::Anthropic ? u"anthropic"_s : u"openai-chat"_s;
}

std::optional<ProviderProfile::Protocol> ProviderProfile::protocolFromName(QStringView name)
{
    if (name == u"openai-chat" || name == u"openai")
        return Protocol::OpenAiChat;
    if (name == u"anthropic")
        return Protocol::Anthropic;
    return std::nullopt;
}

QString ProviderProfile::defaultKeyEnvVar(Protocol protocol)
{
    return protocol == Protocol::Anthropic ? u"ANTHROPIC_API_KEY"_s : u"OPENAI_API_KEY"_s;
}

ProviderProfile ProviderProfile::defaultProfile()
{
    ProviderProfile p;
    p.name = u"Local (Ollama)"_s;
    p.protocol = Protocol::OpenAiChat;
    p.baseUrl = QUrl(u"http://127.0.0.1:11434/v1"_s);
    p.model = u"qwen3"_s;
    return p;
}

QJsonObject ProviderProfile::toJson() const
{
    QJsonObject o{
        {u"name"_s, name},
        {u"protocol"_s, protocolName(protocol)},
        {u"baseUrl"_s, baseUrl.toString()},
        {u"model"_s, model},
    };
    if (!keyRef.isEmpty())
        o.insert(u"keyRef", keyRef);
    if (contextWindow > 0)
        o.insert(u"contextWindow", contextWindow);
    if (maxOutputTokens > 0)
        o.insert(u"maxOutputTokens", maxOutputTokens);
    return o;
}

std::optional<ProviderProfile> ProviderProfile::fromJson(const QJsonObject &o, QString *error)
{
    ProviderProfile p;
    p.name = o.value(u"name").toString();
    const auto protocol = protocolFromName(o.value(u"protocol").toString());
    if (!protocol) {
        fail(error, QCoreApplication::translate("wl::ProviderProfile", "unknown protocol \"%1\" (expected openai-chat or anthropic)").arg(o.value(u"protocol").toString()));
        return std::nullopt;
    }
    p.protocol = *protocol;
    p.baseUrl = QUrl(o.value(u"baseUrl").toString(), QUrl::StrictMode);
    if (!p.baseUrl.isValid() || (p.baseUrl.scheme() != u"http" && p.baseUrl.scheme() != u"https")
        || p.baseUrl.host().isEmpty()) {
        fail(error, QCoreApplication::translate("wl::ProviderProfile", "the base URL \"%1\" is not an http(s) URL").arg(o.value(u"baseUrl").toString()));
        return std::nullopt;
    }
    if (!p.baseUrl.userInfo().isEmpty()) {
        fail(error, QCoreApplication::translate("wl::ProviderProfile", "the base URL must not carry a user name or password"));
        return std::nullopt;
    }
    p.model = o.value(u"model").toString().trimmed();
    if (p.model.isEmpty()) {
        fail(error, QCoreApplication::translate("wl::ProviderProfile", "the profile names no model"));
        return std::nullopt;
    }
    p.keyRef = o.value(u"keyRef").toString().trimmed();
    if (looksLikeSecret(p.keyRef)) {
        fail(error, QCoreApplication::translate("wl::ProviderProfile", "keyRef looks like an API key itself; store the key in the keychain or an "
                                                                       "environment variable and put its name here"));
        return std::nullopt;
    }
    // Absent means "not set" (0); anything present must be a whole number in range.
    QString why;
    const QJsonValue window = o.value(u"contextWindow");
    if (!window.isUndefined()) {
        const auto value = BoundedInteger::fromJson(window, 0, BoundedInteger::maxTokens, u"contextWindow"_s, &why);
        if (!value) {
            fail(error, why);
            return std::nullopt;
        }
        p.contextWindow = *value;
    }
    const QJsonValue output = o.value(u"maxOutputTokens");
    if (!output.isUndefined()) {
        const auto value = BoundedInteger::fromJson(output, 0, std::numeric_limits<int>::max(), u"maxOutputTokens"_s, &why);
        if (!value) {
            fail(error, why);
            return std::nullopt;
        }
        p.maxOutputTokens = int(*value);
    }
    // Any "apiKey"/"api_key"/"key" field is ignored on purpose: secrets never come from profile files.
    return p;
}

} // namespace wl
