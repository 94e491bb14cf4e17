#pragma once

#include "compaction/CompactionPolicy.h"
#include "llm/ProviderProfile.h"

#include <QByteArray>
#include <QJsonObject>
#include <QList>
#include <QObject>
#include <QString>
#include <QUrl>

#include <memory>
#include <optional>

class QSettings;

namespace wl {

class ApprovalPolicy;

// The application's persistent preferences, typed, over QSettings: every key
// and default lives in AppSettings.cpp, and every setter emits changed(key)
// when the stored value actually changes.
//
// Secrets never pass through here: a provider profile carries a key
// *reference* (an environment variable or keychain entry name), and
// setProfiles() refuses a profile whose reference looks like a key itself.
class AppSettings : public QObject
{
    Q_OBJECT

public:
    enum class Key {
        ProviderProfiles,
        DefaultProfile,
        SummarizerProfile,
        CompactionPolicy,
        ApprovalPolicy,
        TurnLimit,
        Theme,
        Language,
        TimelineAxis,
        TimelineView,
        PriceOverrides,
        ProxyUpstream,
        ProxyPort,
        ProxyCompact,
    };
    Q_ENUM(Key)

    enum class Theme { System, Light, Dark };
    Q_ENUM(Theme)

    // What the timeline's vertical axis counts: a percent of the context window, or tokens.
    enum class TimelineAxis { Percent, Tokens };
    Q_ENUM(TimelineAxis)
    // What the timeline draws: its lines, or each request's composition as stacked areas.
    enum class TimelineView { Lines, Composition };
    Q_ENUM(TimelineView)

    static constexpr int kDefaultTurnLimit = 100;
    static constexpr int kMaxTurnLimit = 100000;

    // The application's QSettings (organisation and application name set by the app).
    explicit AppSettings(QObject *parent = nullptr);
    // A settings file of its own (tests, a --settings option): INI format at `path`.
    explicit AppSettings(const QString &path, QObject *parent = nullptr);
    ~AppSettings() override;

    // The QSettings key a setting is stored under ("providers/profiles", ...).
    static QString keyName(Key key);
    QString fileName() const;
    void sync();

    // Provider profiles. Never empty: with nothing stored (or nothing readable)
    // the list is ProviderProfile::defaultProfile() alone.
    QList<ProviderProfile> profiles() const;
    // Stores `profiles` (names must be unique and non-empty, each must survive
    // its own JSON round trip). On failure nothing is written and `error` says why.
    // Stored profiles that could not be read are kept under "providers/unreadable"
    // before they are overwritten, so a hand edit gone wrong is not lost.
    bool setProfiles(const QList<ProviderProfile> &profiles, QString *error = nullptr);
    // Problems met reading the stored profiles (empty when all were fine).
    QStringList profileLoadErrors() const;

    // The profile new sessions use: by name, falling back to the first profile.
    QString defaultProfileName() const;
    void setDefaultProfileName(const QString &name);
    ProviderProfile defaultProfile() const;
    std::optional<ProviderProfile> profile(const QString &name) const;

    // The profile that writes compaction summaries; empty means "the default profile".
    QString summarizerProfileName() const;
    void setSummarizerProfileName(const QString &name);
    ProviderProfile summarizerProfile() const;

    CompactionPolicy compactionPolicy() const;
    bool setCompactionPolicy(const CompactionPolicy &policy, QString *error = nullptr);

    ApprovalPolicy approvalPolicy() const;
    void setApprovalPolicy(const ApprovalPolicy &policy);

    // LLM requests per prompt before a run gives up.
    int turnLimit() const;
    void setTurnLimit(int limit);

    Theme theme() const;
    void setTheme(Theme theme);
    static QString themeName(Theme theme);                 // "system" | "light" | "dark"
    static std::optional<Theme> themeFromName(QStringView name);

    // "system", "en" or "zh_CN"; applied at the next start.
    QString language() const;
    void setLanguage(const QString &language);
    static QStringList languages();

    // Remembered between runs; percent unless tokens were chosen.
    TimelineAxis timelineAxis() const;
    void setTimelineAxis(TimelineAxis axis);
    // Remembered between runs; lines unless the composition was chosen.
    TimelineView timelineView() const;
    void setTimelineView(TimelineView view);
    // The main window's layout as the window saved it (opaque bytes: its geometry, its docks'
    // state, the conversation splitter), restored at the next start; empty when none was saved.
    enum class WindowPart { Geometry, DockState, ConversationSplitter };
    QByteArray windowLayout(WindowPart part) const;
    void setWindowLayout(WindowPart part, const QByteArray &bytes);
    // The user's changes to the price table of the cost model (PriceTable::applyOverrides reads
    // them): {"<model prefix>": {"input", "cached_input", "cache_write", "output"}} in US$ per
    // million tokens. Empty when none (or when what is stored is not a JSON object).
    QJsonObject priceOverrides() const;
    void setPriceOverrides(const QJsonObject &overrides);
    // The Proxy panel's upstream provider (https://api.anthropic.com until one is chosen) and the
    // port it listens on (0: any free port). A user name or password in the URL is never stored.
    QUrl proxyUpstream() const;
    void setProxyUpstream(const QUrl &upstream);
    quint16 proxyPort() const;
    void setProxyPort(quint16 port);
    // Whether the window's proxy compacts the requests it forwards (compact mode; off by default).
    bool proxyCompact() const;
    void setProxyCompact(bool on);

Q_SIGNALS:
    void changed(wl::AppSettings::Key key);

private:
    QString readRawProfiles() const;
    void writeValue(Key key, const QVariant &value);

    std::unique_ptr<QSettings> m_settings;
};

} // namespace wl
