#pragma once

#include "compaction/CompactionPolicy.h"

#include <QJsonObject>
#include <QString>
#include <QUrl>

#include <optional>

namespace wl {

// Where and how to reach one model: protocol, base URL, model, a reference
// to the API key (the name of an environment variable or of a keychain entry,
// never the key itself), context window and output limit.
//
// Base URL conventions: for openai-chat it includes the version folder
// ("https://api.openai.com/v1", "http://127.0.0.1:11434/v1"); for anthropic it
// is the host ("https://api.anthropic.com"), "/v1/messages" is appended.
struct ProviderProfile
{
    enum class Protocol { OpenAiChat, Anthropic };

    QString name;
    Protocol protocol = Protocol::OpenAiChat;
    QUrl baseUrl;
    QString model;
    QString keyRef;              // e.g. "OPENAI_API_KEY" or "waterline/openai"; empty: no key needed
    qint64 contextWindow = 0;    // 0: look the model up in ModelTable
    int maxOutputTokens = 0;     // 0: look the model up in ModelTable

    // The configured window, else the model table's, else a conservative 8192.
    qint64 effectiveContextWindow() const;
    int effectiveMaxOutputTokens() const;
    // `policy` for a session on this model: a policy that keeps the default window (128,000) gets
    // effectiveContextWindow(); a window set by the user stays.
    CompactionPolicy sizedPolicy(const CompactionPolicy &policy) const;

    // JSON without secrets: fromJson ignores any key-like field ("apiKey",
    // "api_key", "key") and refuses a keyRef that looks like a key itself.
    QJsonObject toJson() const;
    static std::optional<ProviderProfile> fromJson(const QJsonObject &object, QString *error = nullptr);

    static QString protocolName(Protocol protocol);           // "openai-chat" | "anthropic"
    static std::optional<Protocol> protocolFromName(QStringView name);

    // Local-first: an OpenAI-compatible server at Ollama's default address, no key.
    static ProviderProfile defaultProfile();
    // The usual environment variable for the protocol's key.
    static QString defaultKeyEnvVar(Protocol protocol);

    friend bool operator==(const ProviderProfile &, const ProviderProfile &) = default;
};

} // namespace wl
