#include "AppSettings.h"

#include <QLoggingCategory>
#include "tools/ApprovalPolicy.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QSet>
#include <QSettings>

#include <algorithm>

using namespace Qt::StringLiterals;

namespace wl {

namespace {

Q_LOGGING_CATEGORY(lcSettings, "waterline.settings", QtWarningMsg)

struct ParsedProfiles
{
    QList<ProviderProfile> profiles;
    QStringList errors;
};

ParsedProfiles parseProfiles(const QString &raw)
{
    ParsedProfiles out;
    if (raw.trimmed().isEmpty())
        return out;
    QJsonParseError parseError;
    const QJsonDocument doc = QJsonDocument::fromJson(raw.toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !doc.isArray()) {
        out.errors << AppSettings::tr("The stored provider profiles are not a JSON array (%1).")
                          .arg(parseError.error != QJsonParseError::NoError ? parseError.errorString()
                                                                            : AppSettings::tr("wrong type"));
        return out;
    }
    QSet<QString> names;
    const QJsonArray array = doc.array();
    for (qsizetype i = 0; i < array.size(); ++i) {
        QString error;
        const auto profile = ProviderProfile::fromJson(array.at(i).toObject(), &error);
        if (!profile) {
            out.errors << AppSettings::tr("Provider profile %1 could not be read: %2").arg(i + 1).arg(error);
            continue;
        }
        if (profile->name.trimmed().isEmpty() || names.contains(profile->name)) {
            out.errors << AppSettings::tr("Provider profile %1 has an empty or repeated name \"%2\".")
                              .arg(i + 1)
                              .arg(profile->name);
            continue;
        }
        names.insert(profile->name);
        out.profiles << *profile;
    }
    return out;
}

} // namespace

AppSettings::AppSettings(QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>())
{
}

AppSettings::AppSettings(const QString &path, QObject *parent)
    : QObject(parent)
    , m_settings(std::make_unique<QSettings>(path, QSettings::IniFormat))
{
}

AppSettings::~AppSettings() = default;

QString AppSettings::keyName(Key key)
{
    switch (key) {
    case Key::ProviderProfiles: return u"providers/profiles"_s;
    case Key::DefaultProfile: return u"providers/default"_s;
    case Key::SummarizerProfile: return u"providers/summarizer"_s;
    case Key::CompactionPolicy: return u"compaction/defaultPolicy"_s;
    case Key::ApprovalPolicy: return u"agent/approvalPolicy"_s;
    case Key::TurnLimit: return u"agent/turnLimit"_s;
    case Key::Theme: return u"appearance/theme"_s;
    case Key::Language: return u"appearance/language"_s;
    case Key::TimelineAxis: return u"timeline/axis"_s;
    case Key::TimelineView: return u"timeline/view"_s;
    case Key::PriceOverrides: return u"costs/priceOverrides"_s;
    case Key::ProxyUpstream: return u"proxy/upstream"_s;
    case Key::ProxyPort: return u"proxy/port"_s;
    case Key::ProxyCompact: return u"proxy/compact"_s;
    }
    return {};
}

QString AppSettings::fileName() const
{
    return m_settings->fileName();
}

void AppSettings::sync()
{
    m_settings->sync();
}

void AppSettings::writeValue(Key key, const QVariant &value)
{
    const QString name = keyName(key);
    // Compared as text: INI files give every value back as a string.
    if (m_settings->contains(name) && m_settings->value(name).toString() == value.toString())
        return;
    m_settings->setValue(name, value);
    Q_EMIT changed(key);
}

QString AppSettings::readRawProfiles() const
{
    return m_settings->value(keyName(Key::ProviderProfiles)).toString();
}

QList<ProviderProfile> AppSettings::profiles() const
{
    ParsedProfiles parsed = parseProfiles(readRawProfiles());
    for (const QString &error : std::as_const(parsed.errors))
        qCWarning(lcSettings).noquote() << error;
    if (parsed.profiles.isEmpty())
        return {ProviderProfile::defaultProfile()};
    return parsed.profiles;
}

QStringList AppSettings::profileLoadErrors() const
{
    return parseProfiles(readRawProfiles()).errors;
}

bool AppSettings::setProfiles(const QList<ProviderProfile> &profiles, QString *error)
{
    const auto fail = [error](const QString &text) {
        if (error)
            *error = text;
        return false;
    };
    QJsonArray array;
    QSet<QString> names;
    for (const ProviderProfile &profile : profiles) {
        const QString name = profile.name.trimmed();
        if (name.isEmpty())
            return fail(tr("Every provider profile needs a name."));
        if (names.contains(name))
            return fail(tr("Two provider profiles are called \"%1\"; names must be unique.").arg(name));
        names.insert(name);
        const QJsonObject json = profile.toJson();
        QString problem;
        if (!ProviderProfile::fromJson(json, &problem))
            return fail(tr("Provider profile \"%1\": %2").arg(name, problem));
        array.append(json);
    }
    const QString raw = readRawProfiles();
    if (!raw.isEmpty() && !parseProfiles(raw).errors.isEmpty()) {
        m_settings->setValue(u"providers/unreadable"_s, raw);
        qCWarning(lcSettings) << "kept the unreadable stored provider profiles under providers/unreadable";
    }
    writeValue(Key::ProviderProfiles, QString::fromUtf8(QJsonDocument(array).toJson(QJsonDocument::Compact)));
    return true;
}

QString AppSettings::defaultProfileName() const
{
    const QList<ProviderProfile> all = profiles();
    const QString stored = m_settings->value(keyName(Key::DefaultProfile)).toString();
    for (const ProviderProfile &p : all) {
        if (p.name == stored)
            return stored;
    }
    return all.constFirst().name;
}

void AppSettings::setDefaultProfileName(const QString &name)
{
    writeValue(Key::DefaultProfile, name);
}

std::optional<ProviderProfile> AppSettings::profile(const QString &name) const
{
    for (const ProviderProfile &p : profiles()) {
        if (p.name == name)
            return p;
    }
    return std::nullopt;
}

ProviderProfile AppSettings::defaultProfile() const
{
    return profile(defaultProfileName()).value_or(ProviderProfile::defaultProfile());
}

QString AppSettings::summarizerProfileName() const
{
    const QString stored = m_settings->value(keyName(Key::SummarizerProfile)).toString();
    return profile(stored) ? stored : QString();
}

void AppSettings::setSummarizerProfileName(const QString &name)
{
    writeValue(Key::SummarizerProfile, name);
}

ProviderProfile AppSettings::summarizerProfile() const
{
    const QString name = summarizerProfileName();
    return name.isEmpty() ? defaultProfile() : profile(name).value_or(defaultProfile());
}

CompactionPolicy AppSettings::compactionPolicy() const
{
    const QString raw = m_settings->value(keyName(Key::CompactionPolicy)).toString();
    CompactionPolicy policy;
    if (raw.isEmpty())
        return policy;
    QString error;
    const QJsonDocument doc = QJsonDocument::fromJson(raw.toUtf8());
    if (!doc.isObject() || !CompactionPolicy::fromJson(doc.object(), &policy, &error)) {
        qCWarning(lcSettings).noquote() << "the stored compaction policy is unusable, using the defaults:"
                                  << (error.isEmpty() ? u"not a JSON object"_s : error);
        return CompactionPolicy{};
    }
    return policy;
}

bool AppSettings::setCompactionPolicy(const CompactionPolicy &policy, QString *error)
{
    const QString problem = policy.validate();
    if (!problem.isEmpty()) {
        if (error)
            *error = problem;
        return false;
    }
    writeValue(Key::CompactionPolicy, QString::fromUtf8(QJsonDocument(policy.toJson()).toJson(QJsonDocument::Compact)));
    return true;
}

ApprovalPolicy AppSettings::approvalPolicy() const
{
    const QString raw = m_settings->value(keyName(Key::ApprovalPolicy)).toString();
    if (raw.isEmpty())
        return ApprovalPolicy{};
    QString error;
    const ApprovalPolicy policy = ApprovalPolicy::fromJson(QJsonDocument::fromJson(raw.toUtf8()).object(), &error);
    if (!error.isEmpty())
        qCWarning(lcSettings).noquote() << "the stored approval policy has a problem:" << error;
    return policy;
}

void AppSettings::setApprovalPolicy(const ApprovalPolicy &policy)
{
    writeValue(Key::ApprovalPolicy, QString::fromUtf8(QJsonDocument(policy.toJson()).toJson(QJsonDocument::Compact)));
}

int AppSettings::turnLimit() const
{
    bool ok = false;
    const int limit = m_settings->value(keyName(Key::TurnLimit)).toInt(&ok);
    return ok && limit >= 1 && limit <= kMaxTurnLimit ? limit : kDefaultTurnLimit;
}

void AppSettings::setTurnLimit(int limit)
{
    writeValue(Key::TurnLimit, std::clamp(limit, 1, kMaxTurnLimit));
}

QString AppSettings::themeName(Theme theme)
{
    switch (theme) {
    case Theme::System: return u"system"_s;
    case Theme::Light: return u"light"_s;
    case Theme::Dark: return u"dark"_s;
    }
    return u"system"_s;
}

std::optional<AppSettings::Theme> AppSettings::themeFromName(QStringView name)
{
    for (Theme t : {Theme::System, Theme::Light, Theme::Dark}) {
        if (name == themeName(t))
            return t;
    }
    return std::nullopt;
}

AppSettings::Theme AppSettings::theme() const
{
    return themeFromName(m_settings->value(keyName(Key::Theme)).toString()).value_or(Theme::System);
}

void AppSettings::setTheme(Theme theme)
{
    // Not stored yet reads as the default: saving that default is no change (and no signal).
    if (theme == this->theme())
        return;
    writeValue(Key::Theme, themeName(theme));
}

QStringList AppSettings::languages()
{
    return {u"system"_s, u"en"_s, u"zh_CN"_s};
}

QString AppSettings::language() const
{
    const QString stored = m_settings->value(keyName(Key::Language)).toString();
    return languages().contains(stored) ? stored : u"system"_s;
}

void AppSettings::setLanguage(const QString &language)
{
    const QString value = languages().contains(language) ? language : u"system"_s;
    // A language never chosen reads as "system": saving the Settings (say, for a new theme) with it
    // unchanged must not announce a new language.
    if (value == this->language())
        return;
    writeValue(Key::Language, value);
}

AppSettings::TimelineAxis AppSettings::timelineAxis() const
{
    return m_settings->value(keyName(Key::TimelineAxis)).toString() == u"tokens" ? TimelineAxis::Tokens : TimelineAxis::Percent;
}

void AppSettings::setTimelineAxis(TimelineAxis axis)
{
    writeValue(Key::TimelineAxis, axis == TimelineAxis::Tokens ? u"tokens"_s : u"percent"_s);
}

AppSettings::TimelineView AppSettings::timelineView() const
{
    return m_settings->value(keyName(Key::TimelineView)).toString() == u"composition" ? TimelineView::Composition
                                                                                      : TimelineView::Lines;
}

void AppSettings::setTimelineView(TimelineView view)
{
    writeValue(Key::TimelineView, view == TimelineView::Composition ? u"composition"_s : u"lines"_s);
}

namespace {
QString windowKey(AppSettings::WindowPart part)
{
    switch (part) {
    case AppSettings::WindowPart::Geometry: return u"MainWindow/geometry"_s;
    case AppSettings::WindowPart::DockState: return u"MainWindow/state"_s;
    case AppSettings::WindowPart::ConversationSplitter: return u"MainWindow/conversationSplitter"_s;
    }
    return {};
}
} // namespace

QByteArray AppSettings::windowLayout(WindowPart part) const
{
    return m_settings->value(windowKey(part)).toByteArray();
}

void AppSettings::setWindowLayout(WindowPart part, const QByteArray &bytes)
{
    m_settings->setValue(windowKey(part), bytes);
}

QJsonObject AppSettings::priceOverrides() const
{
    const QString raw = m_settings->value(keyName(Key::PriceOverrides)).toString();
    if (raw.trimmed().isEmpty())
        return {};
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(raw.toUtf8(), &error);
    if (!doc.isObject()) {
        qCWarning(lcSettings) << "ignoring unreadable price overrides:" << error.errorString();
        return {};
    }
    return doc.object();
}

void AppSettings::setPriceOverrides(const QJsonObject &overrides)
{
    writeValue(Key::PriceOverrides, QString::fromUtf8(QJsonDocument(overrides).toJson(QJsonDocument::Compact)));
}

QUrl AppSettings::proxyUpstream() const
{
    const QUrl stored(m_settings->value(keyName(Key::ProxyUpstream)).toString(), QUrl::StrictMode);
    if (!stored.isValid() || stored.isEmpty())
        return QUrl(u"https://api.anthropic.com"_s);
    return stored.adjusted(QUrl::RemoveUserInfo);
}

void AppSettings::setProxyUpstream(const QUrl &upstream)
{
    // A key pasted as the URL's password stays out of the settings file.
    writeValue(Key::ProxyUpstream, upstream.adjusted(QUrl::RemoveUserInfo).toString());
}

quint16 AppSettings::proxyPort() const
{
    bool ok = false;
    const uint port = m_settings->value(keyName(Key::ProxyPort)).toUInt(&ok);
    return ok && port <= 65535 ? quint16(port) : quint16(0);
}

void AppSettings::setProxyPort(quint16 port)
{
    writeValue(Key::ProxyPort, int(port));
}

bool AppSettings::proxyCompact() const
{
    return m_settings->value(keyName(Key::ProxyCompact), false).toBool();
}

void AppSettings::setProxyCompact(bool on)
{
    writeValue(Key::ProxyCompact, on);
}

} // namespace wl
