#include "ApiKeyStore.h"

#include "LoggingCategories.h"
#include "ProviderProfile.h"
#include "Redaction.h"

#include <QCoreApplication>
#include <QRegularExpression>
#include <QTimer>

#ifdef WATERLINE_HAVE_KEYCHAIN
#include <qt6keychain/keychain.h>
#endif

using namespace Qt::StringLiterals;

namespace wl {

namespace {
constexpr QLatin1StringView kService{"Waterline"};
} // namespace

ApiKeyStore::ApiKeyStore(QObject *parent)
    : QObject(parent)
{
    m_keychainEnabled = keychainCompiledIn() && qEnvironmentVariableIntValue("WATERLINE_NO_KEYCHAIN") == 0;
}

bool ApiKeyStore::keychainCompiledIn()
{
#ifdef WATERLINE_HAVE_KEYCHAIN
    return true;
#else
    return false;
#endif
}

QString ApiKeyStore::sourceName(Source source)
{
    switch (source) {
    case Source::None: return u"none"_s;
    case Source::Keychain: return u"keychain"_s;
    case Source::Environment: return u"environment"_s;
    }
    return u"none"_s;
}

QString ApiKeyStore::environmentVariableFor(const ProviderProfile &profile)
{
    static const QRegularExpression variableName(u"^[A-Z_][A-Z0-9_]*$"_s);
    if (variableName.match(profile.keyRef).hasMatch())
        return profile.keyRef;
    return ProviderProfile::defaultKeyEnvVar(profile.protocol);
}

void ApiKeyStore::lookup(const ProviderProfile &profile)
{
    const QString keyRef = profile.keyRef;
    const QString variable = environmentVariableFor(profile);
    if (keyRef.isEmpty()) {
        QTimer::singleShot(0, this, [this, keyRef] {
            Q_EMIT keyResolved(keyRef, Result{{}, Source::None, tr("this profile needs no key")});
        });
        return;
    }
#ifdef WATERLINE_HAVE_KEYCHAIN
    if (m_keychainEnabled) {
        auto *job = new QKeychain::ReadPasswordJob(kService, this);
        job->setAutoDelete(true);
        job->setKey(keyRef);
        connect(job, &QKeychain::Job::finished, this, [this, job, keyRef, variable] {
            const QString key = job->error() == QKeychain::NoError ? job->textData().trimmed() : QString();
            if (!key.isEmpty()) {
                Redaction::registerSecret(key);
                qCDebug(lcLlm).noquote() << "API key for" << keyRef << "found in the keychain";
                Q_EMIT keyResolved(keyRef, Result{key, Source::Keychain, tr("keychain entry %1").arg(keyRef)});
                return;
            }
            const QString note = job->error() == QKeychain::EntryNotFound
                ? tr("no keychain entry %1").arg(keyRef)
                : tr("keychain unavailable (%1)").arg(Redaction::redact(job->errorString()));
            resolveFromEnvironment(keyRef, variable, note);
        });
        job->start();
        return;
    }
#endif
    QTimer::singleShot(0, this, [this, keyRef, variable] {
        resolveFromEnvironment(keyRef, variable, tr("keychain not used"));
    });
}

void ApiKeyStore::resolveFromEnvironment(const QString &keyRef, const QString &variable, const QString &keychainNote)
{
    const QString key = qEnvironmentVariable(variable.toLocal8Bit().constData()).trimmed();
    if (key.isEmpty()) {
        qCDebug(lcLlm).noquote() << "no API key for" << keyRef << "(" << keychainNote << "; environment variable"
                                 << variable << "unset)";
        Q_EMIT keyResolved(keyRef, Result{{}, Source::None,
                                        tr("%1; environment variable %2 is not set").arg(keychainNote, variable)});
        return;
    }
    Redaction::registerSecret(key);
    qCDebug(lcLlm).noquote() << "API key for" << keyRef << "taken from environment variable" << variable;
    Q_EMIT keyResolved(keyRef, Result{key, Source::Environment, tr("environment variable %1").arg(variable)});
}

void ApiKeyStore::store(const QString &keyRef, const QString &key)
{
#ifdef WATERLINE_HAVE_KEYCHAIN
    if (m_keychainEnabled) {
        Redaction::registerSecret(key);
        auto *job = new QKeychain::WritePasswordJob(kService, this);
        job->setAutoDelete(true);
        job->setKey(keyRef);
        job->setTextData(key);
        connect(job, &QKeychain::Job::finished, this, [this, job, keyRef] {
            const bool ok = job->error() == QKeychain::NoError;
            Q_EMIT keyStored(keyRef, ok, ok ? QString() : Redaction::redact(job->errorString()));
        });
        job->start();
        return;
    }
#else
    Q_UNUSED(key)
#endif
    QTimer::singleShot(0, this, [this, keyRef] {
        Q_EMIT keyStored(keyRef, false, tr("no keychain is available; set the key in an environment variable instead"));
    });
}

} // namespace wl
