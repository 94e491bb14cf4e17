#include "ModelDiscovery.h"

#include "AnthropicClient.h"
#include "LoggingCategories.h"
#include "ProviderProfile.h"
#include "ProviderRequest.h"
#include "Redaction.h"

#include <QCoreApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QNetworkAccessManager>
#include <QNetworkReply>
#include <QNetworkRequest>
#include <QTimer>
#include <QUrlQuery>

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr qint64 kMaxListBytes = 4 * 1024 * 1024; // a model list is a few kilobytes; 4 MB is generous
} // namespace

ModelDiscovery::ModelDiscovery(QObject *parent)
    : QObject(parent)
    , m_manager(new QNetworkAccessManager(this))
{
}

ModelDiscovery::~ModelDiscovery()
{
    cancel();
}

void ModelDiscovery::setNetworkAccessManager(QNetworkAccessManager *manager)
{
    if (!manager || manager == m_manager)
        return;
    if (m_manager && m_manager->parent() == this)
        m_manager->deleteLater();
    m_manager = manager;
}

QUrl ModelDiscovery::modelsUrl(const ProviderProfile &profile)
{
    if (profile.protocol == ProviderProfile::Protocol::Anthropic) {
        QUrl url = AnthropicClient::apiUrl(profile.baseUrl, u"/models");
        url.setQuery(QUrlQuery{{u"limit"_s, u"1000"_s}});
        return url;
    }
    QUrl url = profile.baseUrl;
    QString path = url.path();
    while (path.endsWith(u'/'))
        path.chop(1);
    url.setPath(path + u"/models"_s);
    return url;
}

QStringList ModelDiscovery::parseModels(const QByteArray &json, QString *error)
{
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(json, &parseError);
    const QJsonArray data = doc.object().value(u"data").toArray();
    if (parseError.error != QJsonParseError::NoError || !doc.object().value(u"data").isArray()) {
        if (error)
            *error = QCoreApplication::translate("wl::ModelDiscovery", "the model list is not {\"data\": [...]}: %1")
                         .arg(QString::fromUtf8(json.left(200)));
        return {};
    }
    QStringList ids;
    for (const QJsonValue &v : data) {
        const QString id = v.toObject().value(u"id").toString();
        if (!id.isEmpty() && !ids.contains(id))
            ids << id;
    }
    ids.sort(Qt::CaseInsensitive);
    return ids;
}

void ModelDiscovery::fetch(const ProviderProfile &profile, const QString &apiKey)
{
    cancel();
    const QUrl url = modelsUrl(profile);
    QNetworkRequest request = ProviderRequest::make(url);
    const QByteArray key = apiKey.trimmed().toUtf8();
    Redaction::registerSecret(apiKey);
    m_keyPresent = !key.isEmpty();
    m_model = profile.model;
    if (m_keyPresent && !ProviderRequest::mayCarryKey(url)) {
        // Reported from the event loop, as every other outcome is.
        QTimer::singleShot(0, this, [this, url] { Q_EMIT failed(ChatError::insecureUrl(url)); });
        return;
    }
    if (profile.protocol == ProviderProfile::Protocol::Anthropic) {
        if (!key.isEmpty())
            request.setRawHeader(QByteArrayLiteral("x-api-key"), key);
        request.setRawHeader(QByteArrayLiteral("anthropic-version"),
                             QByteArray(AnthropicClient::kApiVersion.data(), AnthropicClient::kApiVersion.size()));
    } else if (!key.isEmpty()) {
        request.setRawHeader(QByteArrayLiteral("Authorization"), "Bearer " + key);
    }
    request.setTransferTimeout(m_timeoutMs);
    qCDebug(lcLlm).noquote() << Redaction::redact(QString(u"GET "_s + request.url().toString()));
    m_reply = m_manager->get(request);
    connect(m_reply, &QNetworkReply::finished, this, &ModelDiscovery::onFinished);
    connect(m_reply, &QNetworkReply::readyRead, this, [this] {
        // Qt buffers the whole body until it finishes; a server that never stops would fill memory.
        if (m_reply && m_reply->bytesAvailable() > kMaxListBytes) {
            cancel();
            Q_EMIT failed(ChatError::tooLarge(kMaxListBytes));
        }
    });
}

void ModelDiscovery::cancel()
{
    if (!m_reply)
        return;
    QNetworkReply *reply = m_reply;
    m_reply = nullptr;
    reply->disconnect(this);
    reply->abort();
    reply->deleteLater();
}

void ModelDiscovery::onFinished()
{
    QNetworkReply *reply = m_reply;
    if (!reply)
        return;
    m_reply = nullptr;
    reply->deleteLater();
    const int status = reply->attribute(QNetworkRequest::HttpStatusCodeAttribute).toInt();
    const QByteArray body = reply->read(kMaxListBytes);
    if (status >= 300) {
        ChatError::HttpReply http{status, body, reply->rawHeader(QByteArrayLiteral("retry-after")), {}, {}};
        ChatError e = ChatError::fromHttp(http, m_model, m_keyPresent);
        if (status == 404)
            e.message = QCoreApplication::translate("wl::ModelDiscovery",
                                                    "The server has no model list at %1 (HTTP 404).")
                            .arg(reply->url().toString());
        Q_EMIT failed(e);
        return;
    }
    if (reply->error() != QNetworkReply::NoError) {
        if (reply->error() == QNetworkReply::OperationCanceledError || reply->error() == QNetworkReply::TimeoutError)
            Q_EMIT failed(ChatError::timeout(m_timeoutMs));
        else
            Q_EMIT failed(ChatError::connectFailed(reply->url(), int(reply->error()), reply->errorString()));
        return;
    }
    QString error;
    const QStringList ids = parseModels(body, &error);
    if (!error.isEmpty()) {
        Q_EMIT failed(ChatError::protocol(error));
        return;
    }
    Q_EMIT modelsFound(ids);
}

} // namespace wl
