#pragma once

#include <QObject>
#include <QString>

namespace wl {

struct ProviderProfile;

// Finds the API key a profile's keyRef names, asynchronously.
//
// Order: the system keychain (QtKeychain, service "Waterline", entry = keyRef)
// when the build has it (WATERLINE_HAVE_KEYCHAIN) and it is enabled; then the
// environment: keyRef itself when it is a variable name (UPPER_CASE), else
// OPENAI_API_KEY / ANTHROPIC_API_KEY by protocol. A profile without keyRef
// needs no key (local servers) and resolves at once with Source::None.
// The result says which source the key came from; the key itself is never
// logged, and it is registered with Redaction so no log line can show it.
class ApiKeyStore : public QObject
{
    Q_OBJECT

public:
    enum class Source { None, Keychain, Environment };
    Q_ENUM(Source)

    struct Result
    {
        QString key;
        Source source = Source::None;
        QString detail;   // where it looked, for the UI ("environment variable OPENAI_API_KEY")
        bool found() const { return !key.isEmpty(); }
    };

    explicit ApiKeyStore(QObject *parent = nullptr);

    static bool keychainCompiledIn();
    // On by default when compiled in; WATERLINE_NO_KEYCHAIN=1 turns it off (tests, headless CI).
    void setKeychainEnabled(bool enabled) { m_keychainEnabled = enabled && keychainCompiledIn(); }
    bool keychainEnabled() const { return m_keychainEnabled; }

    // Emits keyResolved(profile.keyRef, result) later, from the event loop.
    void lookup(const ProviderProfile &profile);
    // Saves a key in the keychain under keyRef; emits keyStored. Fails when no keychain.
    void store(const QString &keyRef, const QString &key);

    static QString environmentVariableFor(const ProviderProfile &profile);
    static QString sourceName(Source source);

Q_SIGNALS:
    void keyResolved(const QString &keyRef, const wl::ApiKeyStore::Result &result);
    void keyStored(const QString &keyRef, bool ok, const QString &error);

private:
    void resolveFromEnvironment(const QString &keyRef, const QString &variable, const QString &keychainNote);

    bool m_keychainEnabled = false;
};

} // namespace wl
