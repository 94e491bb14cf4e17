#pragma once

#include "ChatError.h"

#include <QObject>
#include <QPointer>
#include <QStringList>
#include <QUrl>

class QNetworkAccessManager;
class QNetworkReply;

namespace wl {

struct ProviderProfile;

// Lists the models a server offers: `GET {base}/models` for openai-chat
// (OpenAI, Ollama /v1, llama.cpp, vLLM, LM Studio) and `GET {base}/v1/models`
// for anthropic; both answer {"data": [{"id": ...}, ...]}. Asynchronous.
class ModelDiscovery : public QObject
{
    Q_OBJECT

public:
    explicit ModelDiscovery(QObject *parent = nullptr);
    ~ModelDiscovery() override;

    void setNetworkAccessManager(QNetworkAccessManager *manager);
    void setTransferTimeoutMs(int ms) { m_timeoutMs = ms; }

    void fetch(const ProviderProfile &profile, const QString &apiKey);
    void cancel();

    static QUrl modelsUrl(const ProviderProfile &profile);
    // Model ids from a models listing, sorted; sets `error` for anything else.
    static QStringList parseModels(const QByteArray &json, QString *error);

Q_SIGNALS:
    void modelsFound(const QStringList &ids);
    void failed(const wl::ChatError &error);

private:
    void onFinished();

    QNetworkAccessManager *m_manager = nullptr;
    QPointer<QNetworkReply> m_reply;
    QString m_model;
    bool m_keyPresent = false;
    int m_timeoutMs = 15000;
};

} // namespace wl
