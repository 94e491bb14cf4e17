#include "settings/AppSettings.h"
#include "tools/ApprovalPolicy.h"

#include <QFile>
#include <QSettings>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

ProviderProfile profile(const QString &name, const QString &model, const QString &keyRef = {})
{
    ProviderProfile p;
    p.name = name;
    p.protocol = ProviderProfile::Protocol::OpenAiChat;
    p.baseUrl = QUrl(u"https://api.example.test/v1"_s);
    p.model = model;
    p.keyRef = keyRef;
    return p;
}

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestAppSettings : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void init();
    void defaultsWithNothingStored();
    void roundTrip();
    void changedOncePerRealChange_data();
    void changedOncePerRealChange();
    void refusesBadProfiles_data();
    void refusesBadProfiles();
    void keyNeverLandsInTheFile();
    void unreadableProfilesAreKept();
    void outOfRangeValuesFallBack();

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_path;
};

void TestAppSettings::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(u"waterline.conf"_s);
}

void TestAppSettings::defaultsWithNothingStored()
{
    AppSettings settings(m_path);
    const QList<ProviderProfile> profiles = settings.profiles();
    QCOMPARE(profiles.size(), 1);
    QCOMPARE(profiles.first(), ProviderProfile::defaultProfile());
    QCOMPARE(profiles.first().baseUrl, QUrl(u"http://127.0.0.1:11434/v1"_s));
    QVERIFY(profiles.first().keyRef.isEmpty());
    QCOMPARE(settings.defaultProfileName(), ProviderProfile::defaultProfile().name);
    QCOMPARE(settings.summarizerProfileName(), QString());
    QCOMPARE(settings.summarizerProfile(), ProviderProfile::defaultProfile());
    QCOMPARE(settings.compactionPolicy(), CompactionPolicy{});
    QCOMPARE(settings.approvalPolicy(), ApprovalPolicy{});
    QCOMPARE(settings.turnLimit(), AppSettings::kDefaultTurnLimit);
    QCOMPARE(settings.theme(), AppSettings::Theme::System);
    QCOMPARE(settings.language(), u"system"_s);
    QCOMPARE(settings.timelineAxis(), AppSettings::TimelineAxis::Percent);
    QCOMPARE(settings.proxyUpstream(), QUrl(u"https://api.anthropic.com"_s));
    QCOMPARE(settings.proxyPort(), quint16(0));
    QVERIFY(settings.profileLoadErrors().isEmpty());
}

void TestAppSettings::roundTrip()
{
    const ProviderProfile local = profile(u"Local"_s, u"qwen3"_s);
    ProviderProfile hosted = profile(u"Hosted"_s, u"claude-sonnet-4-5"_s, u"ANTHROPIC_API_KEY"_s);
    hosted.protocol = ProviderProfile::Protocol::Anthropic;
    hosted.baseUrl = QUrl(u"https://api.anthropic.com"_s);
    hosted.contextWindow = 150000;
    hosted.maxOutputTokens = 8000;
    CompactionPolicy policy;
    policy.warn = 0.5;
    policy.soft = 0.65;
    policy.full = 0.75;
    policy.emergency = 0.9;
    policy.tailMessages = 9;
    policy.summaryTimeoutMs = 12500;
    policy.countToolSchemas = false;
    ApprovalPolicy approval;
    approval.setMode(ApprovalKind::Write, ApprovalMode::Allow);
    approval.setMode(ApprovalKind::Read, ApprovalMode::Ask);
    {
        AppSettings settings(m_path);
        QString error;
        QVERIFY2(settings.setProfiles({local, hosted}, &error), qPrintable(error));
        settings.setDefaultProfileName(u"Hosted"_s);
        settings.setSummarizerProfileName(u"Local"_s);
        QVERIFY(settings.setCompactionPolicy(policy, &error));
        settings.setApprovalPolicy(approval);
        settings.setTurnLimit(250);
        settings.setTheme(AppSettings::Theme::Dark);
        settings.setLanguage(u"zh_CN"_s);
        settings.setTimelineAxis(AppSettings::TimelineAxis::Tokens);
        settings.setProxyUpstream(QUrl(u"http://127.0.0.1:4000/v1"_s));
        settings.setProxyPort(8765);
        settings.sync();
    }
    AppSettings reread(m_path);
    QCOMPARE(reread.profiles(), (QList<ProviderProfile>{local, hosted}));
    QCOMPARE(reread.defaultProfileName(), u"Hosted"_s);
    QCOMPARE(reread.defaultProfile(), hosted);
    QCOMPARE(reread.summarizerProfileName(), u"Local"_s);
    QCOMPARE(reread.summarizerProfile(), local);
    QCOMPARE(reread.compactionPolicy(), policy);
    QCOMPARE(reread.approvalPolicy(), approval);
    QCOMPARE(reread.turnLimit(), 250);
    QCOMPARE(reread.theme(), AppSettings::Theme::Dark);
    QCOMPARE(reread.language(), u"zh_CN"_s);
    QCOMPARE(reread.timelineAxis(), AppSettings::TimelineAxis::Tokens);
    QCOMPARE(reread.proxyUpstream(), QUrl(u"http://127.0.0.1:4000/v1"_s));
    QCOMPARE(reread.proxyPort(), quint16(8765));
}

void TestAppSettings::changedOncePerRealChange_data()
{
    QTest::addColumn<int>("key");
    QTest::newRow("turn limit") << int(AppSettings::Key::TurnLimit);
    QTest::newRow("theme") << int(AppSettings::Key::Theme);
    QTest::newRow("language") << int(AppSettings::Key::Language);
    QTest::newRow("default profile") << int(AppSettings::Key::DefaultProfile);
    QTest::newRow("profiles") << int(AppSettings::Key::ProviderProfiles);
    QTest::newRow("compaction") << int(AppSettings::Key::CompactionPolicy);
    QTest::newRow("approval") << int(AppSettings::Key::ApprovalPolicy);
    QTest::newRow("timeline axis") << int(AppSettings::Key::TimelineAxis);
    QTest::newRow("timeline view") << int(AppSettings::Key::TimelineView);
    QTest::newRow("prices") << int(AppSettings::Key::PriceOverrides);
    QTest::newRow("proxy upstream") << int(AppSettings::Key::ProxyUpstream);
    QTest::newRow("proxy port") << int(AppSettings::Key::ProxyPort);
    QTest::newRow("proxy compact") << int(AppSettings::Key::ProxyCompact);
}

void TestAppSettings::changedOncePerRealChange()
{
    QFETCH(int, key);
    AppSettings settings(m_path);
    QSignalSpy spy(&settings, &AppSettings::changed);
    CompactionPolicy policy;
    policy.tailMessages = 3;
    ApprovalPolicy approval = ApprovalPolicy::allowAll();
    const auto set = [&] {
        switch (AppSettings::Key(key)) {
        case AppSettings::Key::TurnLimit: settings.setTurnLimit(7); break;
        case AppSettings::Key::Theme: settings.setTheme(AppSettings::Theme::Light); break;
        case AppSettings::Key::Language: settings.setLanguage(u"en"_s); break;
        case AppSettings::Key::DefaultProfile: settings.setDefaultProfileName(u"Other"_s); break;
        case AppSettings::Key::ProviderProfiles: settings.setProfiles({profile(u"A"_s, u"m"_s)}); break;
        case AppSettings::Key::CompactionPolicy: settings.setCompactionPolicy(policy); break;
        case AppSettings::Key::ApprovalPolicy: settings.setApprovalPolicy(approval); break;
        case AppSettings::Key::SummarizerProfile: settings.setSummarizerProfileName(u"A"_s); break;
        case AppSettings::Key::TimelineAxis: settings.setTimelineAxis(AppSettings::TimelineAxis::Tokens); break;
        case AppSettings::Key::TimelineView: settings.setTimelineView(AppSettings::TimelineView::Composition); break;
        case AppSettings::Key::PriceOverrides:
            settings.setPriceOverrides(QJsonObject{{u"gpt-4o"_s, QJsonObject{{u"input"_s, 2.0}}}});
            break;
        case AppSettings::Key::ProxyUpstream: settings.setProxyUpstream(QUrl(u"https://api.openai.com"_s)); break;
        case AppSettings::Key::ProxyPort: settings.setProxyPort(9000); break;
        case AppSettings::Key::ProxyCompact: settings.setProxyCompact(true); break;
        }
    };
    set();
    QCOMPARE(spy.size(), 1);
    QCOMPARE(spy.at(0).at(0).value<AppSettings::Key>(), AppSettings::Key(key));
    set();   // the same value again: no signal
    QCOMPARE(spy.size(), 1);
}

void TestAppSettings::refusesBadProfiles_data()
{
    QTest::addColumn<QList<ProviderProfile>>("profiles");
    QTest::addColumn<QString>("errorContains");
    ProviderProfile keyAsRef = profile(u"Leaky"_s, u"gpt-4o"_s, u"sk-proj-abcdefghijklmnopqrstuvwxyz0123456789"_s);
    QTest::newRow("key in keyRef") << QList<ProviderProfile>{keyAsRef} << u"looks like an API key"_s;
    QTest::newRow("repeated name") << QList<ProviderProfile>{profile(u"Same"_s, u"a"_s), profile(u"Same"_s, u"b"_s)}
                                   << u"unique"_s;
    QTest::newRow("empty name") << QList<ProviderProfile>{profile(u"  "_s, u"a"_s)} << u"name"_s;
    ProviderProfile badUrl = profile(u"Bad URL"_s, u"m"_s);
    badUrl.baseUrl = QUrl(u"ftp://example.test"_s);
    QTest::newRow("not http") << QList<ProviderProfile>{badUrl} << u"http(s)"_s;
    QTest::newRow("no model") << QList<ProviderProfile>{profile(u"No model"_s, QString())} << u"model"_s;
}

void TestAppSettings::refusesBadProfiles()
{
    QFETCH(QList<ProviderProfile>, profiles);
    QFETCH(QString, errorContains);
    AppSettings settings(m_path);
    const ProviderProfile kept = profile(u"Kept"_s, u"qwen3"_s);
    QVERIFY(settings.setProfiles({kept}));
    QSignalSpy spy(&settings, &AppSettings::changed);
    QString error;
    QVERIFY(!settings.setProfiles(profiles, &error));
    QVERIFY2(error.contains(errorContains), qPrintable(error));
    QCOMPARE(spy.size(), 0);
    QCOMPARE(settings.profiles(), QList<ProviderProfile>{kept});
}

void TestAppSettings::keyNeverLandsInTheFile()
{
    const QByteArray secret = "sk-proj-Zq8vR2mN4xT7yW1pL6kJ3hG9fD5sA0cB";
    {
        AppSettings settings(m_path);
        // The only way a key could reach the settings: as a key reference. It is refused.
        QVERIFY(!settings.setProfiles({profile(u"Leaky"_s, u"gpt-4o"_s, QString::fromLatin1(secret))}));
        QVERIFY(settings.setProfiles({profile(u"Proper"_s, u"gpt-4o"_s, u"OPENAI_API_KEY"_s)}));
        // A key pasted as the proxy upstream's password is dropped, the rest of the URL kept.
        settings.setProxyUpstream(QUrl(u"https://user:"_s + QString::fromLatin1(secret) + u"@api.openai.com/v1"_s));
        QCOMPARE(settings.proxyUpstream(), QUrl(u"https://api.openai.com/v1"_s));
        settings.sync();
    }
    const QByteArray bytes = fileBytes(m_path);
    QVERIFY(!bytes.isEmpty());
    QVERIFY(bytes.contains("OPENAI_API_KEY"));
    QVERIFY(!bytes.contains(secret));
    QVERIFY(!bytes.contains("sk-proj"));
}

void TestAppSettings::unreadableProfilesAreKept()
{
    const QByteArray broken = "[{\"name\": \"Hand edited\", \"protocol\": \"carrier-pigeon\"}";
    {
        QFile file(m_path);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write("[providers]\nprofiles=\"" + QByteArray(broken).replace("\"", "\\\"") + "\"\n");
    }
    AppSettings settings(m_path);
    QCOMPARE(settings.profiles(), QList<ProviderProfile>{ProviderProfile::defaultProfile()});
    QCOMPARE(settings.profileLoadErrors().size(), 1);
    QVERIFY(settings.setProfiles({profile(u"New"_s, u"qwen3"_s)}));
    settings.sync();
    QSettings raw(m_path, QSettings::IniFormat);
    QCOMPARE(raw.value(u"providers/unreadable"_s).toString(), QString::fromUtf8(broken));
    QCOMPARE(settings.profiles().first().name, u"New"_s);
    QVERIFY(settings.profileLoadErrors().isEmpty());
}

void TestAppSettings::outOfRangeValuesFallBack()
{
    {
        QSettings raw(m_path, QSettings::IniFormat);
        raw.setValue(AppSettings::keyName(AppSettings::Key::TurnLimit), -4);
        raw.setValue(AppSettings::keyName(AppSettings::Key::Theme), u"purple"_s);
        raw.setValue(AppSettings::keyName(AppSettings::Key::Language), u"../../etc"_s);
        raw.setValue(AppSettings::keyName(AppSettings::Key::CompactionPolicy), u"{\"warn\": 0.9, \"soft\": 0.1}"_s);
        raw.setValue(AppSettings::keyName(AppSettings::Key::DefaultProfile), u"Missing"_s);
        raw.setValue(AppSettings::keyName(AppSettings::Key::ProxyPort), 70000);
        raw.setValue(AppSettings::keyName(AppSettings::Key::ProxyUpstream), u"http://[::1"_s);
    }
    AppSettings settings(m_path);
    QCOMPARE(settings.turnLimit(), AppSettings::kDefaultTurnLimit);
    QCOMPARE(settings.theme(), AppSettings::Theme::System);
    QCOMPARE(settings.language(), u"system"_s);
    QCOMPARE(settings.compactionPolicy(), CompactionPolicy{});
    QCOMPARE(settings.defaultProfileName(), ProviderProfile::defaultProfile().name);
    QCOMPARE(settings.proxyPort(), quint16(0));
    QCOMPARE(settings.proxyUpstream(), QUrl(u"https://api.anthropic.com"_s));
    CompactionPolicy unordered;
    unordered.warn = 0.9;
    unordered.soft = 0.1;
    QString error;
    QVERIFY(!settings.setCompactionPolicy(unordered, &error));
    QVERIFY(!error.isEmpty());
}

QTEST_GUILESS_MAIN(TestAppSettings)
#include "tst_appsettings.moc"
