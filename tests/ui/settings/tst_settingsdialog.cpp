#include "FakeLlmServer.h"
#include "compaction/Tier.h"
#include "llm/ModelTable.h"
#include "settings/AgentPage.h"
#include "settings/AppSettings.h"
#include "settings/AppearancePage.h"
#include "settings/CompactionPage.h"
#include "settings/ProviderCheck.h"
#include "settings/ProviderProfilesModel.h"
#include "settings/ProvidersPage.h"
#include "settings/PriceTableModel.h"
#include "settings/PricesPage.h"
#include "settings/SettingsDialog.h"
#include "settings/ThemeManager.h"
#include "tools/ApprovalPolicy.h"
#include "tools/BashTool.h"

#include <QAbstractItemModelTester>
#include <QApplication>
#include <QJsonObject>
#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QDoubleSpinBox>
#include <QFile>
#include <QAbstractButton>
#include <QLabel>
#include <QMap>
#include <QLineEdit>
#include <QListView>
#include <QPushButton>
#include <QSet>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTcpServer>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace wl;
using namespace wl::test;
using namespace Qt::StringLiterals;

namespace {

constexpr QLatin1StringView kEnvKeyName{"WATERLINE_SETTINGS_TEST_KEY"};
constexpr QLatin1StringView kEnvKey{"sk-envkey-Hq3rT8wZ1mN5bV7cX2"};
constexpr QLatin1StringView kTypedKey{"sk-typed-Lp9oK8iJ7uH6yG5tF4"};

QByteArray fileBytes(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// Replaces a line edit's text the way a user does (textEdited fires).
void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    edit->selectAll();
    QTest::keyClick(edit, Qt::Key_Backspace);
    QTest::keyClicks(edit, text);
}

QString closedPortUrl()
{
    QTcpServer probe;
    if (!probe.listen(QHostAddress::LocalHost, 0))
        return {};
    const quint16 port = probe.serverPort();
    probe.close();
    return u"http://127.0.0.1:%1/v1"_s.arg(port);
}

} // namespace

class TestSettingsDialog : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase();
    void init();
    void cleanup();
    void showsStoredSettings();
    void priceTableModel();
    void pricesAreSavedAsOverrides();
    void addAndEditProfile();
    void contextWindowFollowsTheModelTable_data();
    void contextWindowFollowsTheModelTable();
    void handEditedWindowIsKept();
    void tableLimitsAreShownNotUnknown();
    void protocolSwitchFollowsDefaults();
    void thresholdsStayOrdered_data();
    void thresholdsStayOrdered();
    void pushedThresholdReturns();
    void strategyIsStored();
    void restoreDefaults();
    void keyStatusSaysWhereTheKeyComesFrom_data();
    void keyStatusSaysWhereTheKeyComesFrom();
    void testConnectionSucceeds_data();
    void testConnectionSucceeds();
    void testConnectionReportsFailures_data();
    void testConnectionReportsFailures();
    void testConnectionCanBeCancelled();
    void discoverModels();
    void discoverModelsReportsFailure();
    void typedKeyNeverReachesTheSettingsFile();
    void invalidProfileIsNotSaved();
    void cancelDropsEditsAndThemePreview();
    void agentAndAppearanceAreSaved();
    void sandboxSettingsAreSaved();
    void keyboardAndNames();
    void screenshot();

private:
    void selectProfileRow(int row);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<AppSettings> m_settings;
    std::unique_ptr<SettingsDialog> m_dialog;
    std::unique_ptr<FakeLlmServer> m_server;
};

void TestSettingsDialog::initTestCase()
{
    // No real keyring in tests: keys come from the environment only.
    qputenv("WATERLINE_NO_KEYCHAIN", "1");
    qputenv(kEnvKeyName.data(), QByteArray(kEnvKey.data(), kEnvKey.size()));
}

void TestSettingsDialog::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_settings = std::make_unique<AppSettings>(m_dir->filePath(u"waterline.conf"_s));
    m_server = std::make_unique<FakeLlmServer>();
    QVERIFY(m_server->start());
    ProviderProfile fake;
    fake.name = u"Fake"_s;
    fake.baseUrl = m_server->openAiBaseUrl();
    fake.model = u"fake-model"_s;
    fake.contextWindow = 32000;
    QVERIFY(m_settings->setProfiles({ProviderProfile::defaultProfile(), fake}));
    m_settings->setDefaultProfileName(u"Fake"_s);
    m_settings->sync();
    m_dialog = std::make_unique<SettingsDialog>(m_settings.get());
    m_dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_dialog.get()));
}

void TestSettingsDialog::cleanup()
{
    m_dialog.reset();
    m_server.reset();
    m_settings.reset();
    m_dir.reset();
}

void TestSettingsDialog::selectProfileRow(int row)
{
    ProvidersPage *page = m_dialog->providersPage();
    page->setCurrentRow(row);
    QCOMPARE(page->currentRow(), row);
}

// The prices: the published table, editable cell by cell; what differs is the override.
void TestSettingsDialog::priceTableModel()
{
    PriceTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    QVERIFY(model.rowCount() > 5);
    QCOMPARE(model.overrides(), QJsonObject());
    const QModelIndex input = model.index(0, PriceTableModel::InputColumn);
    const QString prefix = model.index(0, PriceTableModel::ModelColumn).data().toString();
    QVERIFY(!(model.flags(model.index(0, PriceTableModel::ModelColumn)) & Qt::ItemIsEditable));
    QVERIFY(model.setData(input, 1.25));
    QVERIFY(input.data(PriceTableModel::EditedRole).toBool());
    QCOMPARE(model.overrides(), (QJsonObject{{prefix, QJsonObject{{u"input"_s, 1.25}}}}));
    // Hostile or mistaken values are refused and change nothing.
    for (const QVariant &bad : {QVariant(-1.0), QVariant(u"cheap"_s), QVariant(std::nan("")), QVariant(1e12)})
        QVERIFY(!model.setData(input, bad));
    QCOMPARE(input.data(Qt::EditRole).toDouble(), 1.25);
    // Round trip through the settings' form, then back to the published prices.
    PriceTableModel again;
    again.setOverrides(model.overrides());
    QCOMPARE(again.overrides(), model.overrides());
    model.resetAll();
    QCOMPARE(model.overrides(), QJsonObject());
    QVERIFY(!input.data(PriceTableModel::EditedRole).toBool());
}

void TestSettingsDialog::pricesAreSavedAsOverrides()
{
    PriceTableModel *model = m_dialog->pricesPage()->model();
    const QString prefix = model->index(1, PriceTableModel::ModelColumn).data().toString();
    QVERIFY(model->setData(model->index(1, PriceTableModel::OutputColumn), 42.0));
    QVERIFY(m_dialog->apply());
    const QJsonObject stored = m_settings->priceOverrides();
    QCOMPARE(stored.value(prefix).toObject().value(u"output"_s).toDouble(), 42.0);
    // What the cost model reads from them.
    PriceTable prices = PriceTable::builtIn();
    prices.applyOverrides(stored);
    QCOMPARE(prices.lookup(prefix)->price.output, 42.0);
    // For a look: the page with the changed cell in bold.
    m_dialog->showPage(SettingsDialog::Page::Prices);
    QCOMPARE(m_dialog->currentPage(), SettingsDialog::Page::Prices);
    m_dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(m_dialog.get()));
    QVERIFY(m_dialog->grab().save(QDir::temp().filePath(u"waterline-prices.png"_s)));
}

void TestSettingsDialog::showsStoredSettings()
{
    ProvidersPage *page = m_dialog->providersPage();
    QCOMPARE(m_dialog->profilesModel()->rowCount(), 2);
    QCOMPARE(m_dialog->profilesModel()->defaultName(), u"Fake"_s);
    // The default profile is selected first.
    QCOMPARE(page->currentRow(), 1);
    QCOMPARE(page->nameEdit()->text(), u"Fake"_s);
    QCOMPARE(page->baseUrlEdit()->text(), m_server->openAiBaseUrl().toString());
    QCOMPARE(page->modelCombo()->currentText(), u"fake-model"_s);
    QCOMPARE(page->contextWindowSpin()->value(), 32000);
    QVERIFY(!page->makeDefaultButton()->isEnabled());
    selectProfileRow(0);
    QCOMPARE(page->baseUrlEdit()->text(), u"http://127.0.0.1:11434/v1"_s);
    QVERIFY(page->makeDefaultButton()->isEnabled());
    QCOMPARE(m_dialog->currentPage(), SettingsDialog::Page::Providers);
}

void TestSettingsDialog::addAndEditProfile()
{
    ProvidersPage *page = m_dialog->providersPage();
    QTest::mouseClick(page->addButton(), Qt::LeftButton);
    QCOMPARE(m_dialog->profilesModel()->rowCount(), 3);
    QCOMPARE(page->currentRow(), 2);
    // A new profile starts as a local server without a key.
    QCOMPARE(page->baseUrlEdit()->text(), u"http://127.0.0.1:11434/v1"_s);
    QCOMPARE(page->keySourceCombo()->currentData().toInt(), int(ProvidersPage::KeySource::None));

    typeInto(page->nameEdit(), u"Work vLLM"_s);
    typeInto(page->baseUrlEdit(), u"http://gpu-box.internal:8000/v1"_s);
    typeInto(page->modelCombo()->lineEdit(), u"Qwen/Qwen3-32B"_s);
    page->contextWindowSpin()->setValue(40960);
    page->maxOutputSpin()->setValue(2048);
    page->keySourceCombo()->setCurrentIndex(page->keySourceCombo()->findData(int(ProvidersPage::KeySource::Environment)));
    QCOMPARE(page->keyRefEdit()->text(), u"OPENAI_API_KEY"_s);
    typeInto(page->keyRefEdit(), u"VLLM_KEY"_s);
    QTest::mouseClick(page->makeDefaultButton(), Qt::LeftButton);

    const ProviderProfile edited = m_dialog->profilesModel()->profile(2);
    QCOMPARE(edited.name, u"Work vLLM"_s);
    QCOMPARE(edited.baseUrl, QUrl(u"http://gpu-box.internal:8000/v1"_s));
    QCOMPARE(edited.model, u"Qwen/Qwen3-32B"_s);
    QCOMPARE(edited.contextWindow, 40960);
    QCOMPARE(edited.maxOutputTokens, 2048);
    QCOMPARE(edited.keyRef, u"VLLM_KEY"_s);
    QVERIFY(page->problemLabel()->isHidden());

    // Duplicate and remove.
    QTest::mouseClick(page->duplicateButton(), Qt::LeftButton);
    QCOMPARE(m_dialog->profilesModel()->rowCount(), 4);
    QCOMPARE(page->nameEdit()->text(), u"Work vLLM (copy)"_s);
    QTest::mouseClick(page->removeButton(), Qt::LeftButton);
    QCOMPARE(m_dialog->profilesModel()->rowCount(), 3);

    QVERIFY(m_dialog->apply());
    AppSettings reread(m_settings->fileName());
    QCOMPARE(reread.profiles().size(), 3);
    QCOMPARE(reread.defaultProfileName(), u"Work vLLM"_s);
    QCOMPARE(reread.defaultProfile(), edited);
}

void TestSettingsDialog::contextWindowFollowsTheModelTable_data()
{
    QTest::addColumn<QString>("model");
    QTest::addColumn<bool>("known");
    QTest::newRow("gpt-4o") << u"gpt-4o"_s << true;
    QTest::newRow("ollama tag") << u"llama3.1:8b"_s << true;
    QTest::newRow("claude") << u"claude-sonnet-4-5-20250929"_s << true;
    QTest::newRow("unknown") << u"my-own-finetune"_s << false;
}

void TestSettingsDialog::contextWindowFollowsTheModelTable()
{
    QFETCH(QString, model);
    QFETCH(bool, known);
    ProvidersPage *page = m_dialog->providersPage();
    QTest::mouseClick(page->addButton(), Qt::LeftButton);
    page->contextWindowSpin()->setValue(0);
    page->maxOutputSpin()->setValue(0);
    // Typed key by key: every prefix is looked up on the way, as for a user.
    typeInto(page->modelCombo()->lineEdit(), model);
    const auto entry = ModelTable::lookup(model);
    QCOMPARE(entry.has_value(), known);
    const ProviderProfile stored = m_dialog->profilesModel()->profile(page->currentRow());
    if (known) {
        QVERIFY(entry->contextWindow > 8192);
        QCOMPARE(page->contextWindowSpin()->value(), int(entry->contextWindow));
        QCOMPARE(page->maxOutputSpin()->value(), entry->maxOutputTokens);
        QCOMPARE(stored.contextWindow, entry->contextWindow);
        QVERIFY2(page->contextHintLabel()->text().contains(u"model table"_s), qPrintable(page->contextHintLabel()->text()));
    } else {
        QCOMPARE(page->contextWindowSpin()->value(), 0);
        QCOMPARE(stored.contextWindow, 0);
        QVERIFY(page->contextHintLabel()->text().contains(u"not in the model table"_s));
    }
}

// A profile that leaves its limits to the model table (0) shows the table's numbers in the spin
// boxes, not "Unknown"; a model the table does not know still says Unknown.
void TestSettingsDialog::tableLimitsAreShownNotUnknown()
{
    ProvidersPage *page = m_dialog->providersPage();
    ProviderProfile fromTable;
    fromTable.name = u"Cloud"_s;
    fromTable.model = u"gpt-4o"_s;
    fromTable.contextWindow = 0;
    fromTable.maxOutputTokens = 0;
    m_dialog->profilesModel()->setProfile(0, fromTable);
    page->setCurrentRow(1);
    page->setCurrentRow(0);
    const auto entry = ModelTable::lookup(u"gpt-4o");
    QVERIFY(entry);
    const QLocale locale;
    QCOMPARE(page->contextWindowSpin()->value(), 0);
    QVERIFY2(page->contextWindowSpin()->text().contains(locale.toString(entry->contextWindow)),
             qPrintable(page->contextWindowSpin()->text()));
    QVERIFY(!page->contextWindowSpin()->text().contains(u"Unknown"_s));
    QVERIFY2(page->maxOutputSpin()->text().contains(locale.toString(entry->maxOutputTokens)),
             qPrintable(page->maxOutputSpin()->text()));

    typeInto(page->modelCombo()->lineEdit(), u"my-own-finetune"_s);
    QCOMPARE(page->contextWindowSpin()->value(), 0);
    QVERIFY2(page->contextWindowSpin()->text().startsWith(u"Unknown"_s), qPrintable(page->contextWindowSpin()->text()));
}

void TestSettingsDialog::handEditedWindowIsKept()
{
    ProvidersPage *page = m_dialog->providersPage();
    QTest::mouseClick(page->addButton(), Qt::LeftButton);
    typeInto(page->modelCombo()->lineEdit(), u"gpt-4o"_s);
    const int table4o = page->contextWindowSpin()->value();
    QVERIFY(table4o > 0);
    // Another known model replaces a table value...
    typeInto(page->modelCombo()->lineEdit(), u"claude-sonnet-4-5"_s);
    const int tableClaude = int(ModelTable::lookup(u"claude-sonnet-4-5")->contextWindow);
    QVERIFY(tableClaude != table4o);
    QCOMPARE(page->contextWindowSpin()->value(), tableClaude);
    // ...but not a value the user set.
    page->contextWindowSpin()->setValue(50000);
    QVERIFY(page->contextHintLabel()->text().contains(u"by hand"_s));
    typeInto(page->modelCombo()->lineEdit(), u"gpt-4o"_s);
    QCOMPARE(page->contextWindowSpin()->value(), 50000);
    QCOMPARE(m_dialog->profilesModel()->profile(page->currentRow()).contextWindow, 50000);
}

void TestSettingsDialog::protocolSwitchFollowsDefaults()
{
    ProvidersPage *page = m_dialog->providersPage();
    QTest::mouseClick(page->addButton(), Qt::LeftButton);
    page->protocolCombo()->setCurrentIndex(1);   // Anthropic
    ProviderProfile p = m_dialog->profilesModel()->profile(page->currentRow());
    QCOMPARE(p.protocol, ProviderProfile::Protocol::Anthropic);
    QCOMPARE(p.baseUrl, QUrl(u"https://api.anthropic.com"_s));
    QCOMPARE(p.keyRef, u"ANTHROPIC_API_KEY"_s);
    // A URL the user typed is not replaced.
    typeInto(page->baseUrlEdit(), u"https://proxy.example.test"_s);
    page->protocolCombo()->setCurrentIndex(0);
    p = m_dialog->profilesModel()->profile(page->currentRow());
    QCOMPARE(p.protocol, ProviderProfile::Protocol::OpenAiChat);
    QCOMPARE(p.baseUrl, QUrl(u"https://proxy.example.test"_s));
    QCOMPARE(p.keyRef, u"OPENAI_API_KEY"_s);
}

void TestSettingsDialog::thresholdsStayOrdered_data()
{
    QTest::addColumn<int>("tier");
    QTest::addColumn<double>("percent");
    QTest::addColumn<QList<double>>("expected");
    QTest::newRow("warn up pushes soft and full") << int(Tier::Warn) << 90.0 << QList<double>{0.9, 0.9, 0.9, 0.95};
    QTest::newRow("emergency down pushes all") << int(Tier::Emergency) << 50.0 << QList<double>{0.5, 0.5, 0.5, 0.5};
    QTest::newRow("soft between") << int(Tier::Soft) << 65.0 << QList<double>{0.6, 0.65, 0.8, 0.95};
    QTest::newRow("full below soft") << int(Tier::Full) << 62.5 << QList<double>{0.6, 0.625, 0.625, 0.95};
}

void TestSettingsDialog::thresholdsStayOrdered()
{
    QFETCH(int, tier);
    QFETCH(double, percent);
    QFETCH(QList<double>, expected);
    CompactionPage *page = m_dialog->compactionPage();
    QSignalSpy edited(page, &CompactionPage::edited);
    page->thresholdSpin(Tier(tier))->setValue(percent);
    const CompactionPolicy p = page->policy();
    QCOMPARE((QList<double>{p.warn, p.soft, p.full, p.emergency}), expected);
    QVERIFY2(p.isValid(), qPrintable(p.validate()));
    QCOMPARE(edited.size(), 1);
    QVERIFY(m_dialog->apply());
    QCOMPARE(m_settings->compactionPolicy(), p);
}

// As in the Thresholds dock (one rule, ThresholdOrder): a threshold pushed aside by a neighbour
// goes back to where it was set when the neighbour moves back.
void TestSettingsDialog::pushedThresholdReturns()
{
    CompactionPage *page = m_dialog->compactionPage();
    page->setPolicy(CompactionPolicy{}); // 60, 70, 80, 95 %
    const auto all = [&] {
        const CompactionPolicy p = page->policy();
        return QList<double>{p.warn, p.soft, p.full, p.emergency};
    };
    page->thresholdSpin(Tier::Warn)->setValue(90.0);
    QCOMPARE(all(), (QList<double>{0.9, 0.9, 0.9, 0.95}));
    page->thresholdSpin(Tier::Warn)->setValue(75.0);
    QCOMPARE(all(), (QList<double>{0.75, 0.75, 0.8, 0.95}));
    page->thresholdSpin(Tier::Warn)->setValue(50.0);
    QCOMPARE(all(), (QList<double>{0.5, 0.7, 0.8, 0.95}));
    QCOMPARE(page->thresholdSpin(Tier::Full)->value(), 80.0);
}

void TestSettingsDialog::strategyIsStored()
{
    CompactionPage *page = m_dialog->compactionPage();
    QSignalSpy edited(page, &CompactionPage::edited);
    page->strategyCombo()->setCurrentIndex(page->strategyCombo()->findData(int(CompactionStrategy::Mask)));
    QCOMPARE(edited.size(), 1);
    QCOMPARE(page->policy().strategy, CompactionStrategy::Mask);
    QVERIFY(m_dialog->apply());
    QCOMPARE(m_settings->compactionPolicy().strategy, CompactionStrategy::Mask);
    // Shown again from the settings, without reporting an edit.
    page->setPolicy(m_settings->compactionPolicy());
    QCOMPARE(CompactionStrategy(page->strategyCombo()->currentData().toInt()), CompactionStrategy::Mask);
    QCOMPARE(edited.size(), 1);
}

void TestSettingsDialog::restoreDefaults()
{
    CompactionPage *page = m_dialog->compactionPage();
    page->thresholdSpin(Tier::Warn)->setValue(30);
    page->tailSpin()->setValue(20);
    page->countToolSchemasCheck()->setChecked(false);
    page->summaryTimeoutSpin()->setValue(5);
    page->offloadAtToolTimeSpin()->setValue(123);
    page->reservedOutputSpin()->setValue(4000);
    page->strategyCombo()->setCurrentIndex(page->strategyCombo()->findData(int(CompactionStrategy::Hybrid)));
    CompactionPolicy changed = page->policy();
    QCOMPARE(changed.strategy, CompactionStrategy::Hybrid);
    QCOMPARE(changed.tailMessages, 20);
    QCOMPARE(changed.summaryTimeoutMs, 5000);
    QCOMPARE(changed.offloadAtToolTime, 123);
    QCOMPARE(changed.reservedOutput, 4000);
    QVERIFY(!changed.countToolSchemas);
    QTest::mouseClick(page->restoreDefaultsButton(), Qt::LeftButton);
    QCOMPARE(page->policy(), CompactionPolicy{});
}

void TestSettingsDialog::keyStatusSaysWhereTheKeyComesFrom_data()
{
    QTest::addColumn<QString>("keyRef");
    QTest::addColumn<QString>("expected");
    QTest::newRow("no key") << QString() << u"none is sent"_s;
    QTest::newRow("environment") << QString(kEnvKeyName) << u"from the environment variable %1"_s.arg(kEnvKeyName);
    QTest::newRow("unset variable") << u"WATERLINE_SURELY_UNSET_VAR"_s << u"not set"_s;
}

void TestSettingsDialog::keyStatusSaysWhereTheKeyComesFrom()
{
    QFETCH(QString, keyRef);
    QFETCH(QString, expected);
    ProvidersPage *page = m_dialog->providersPage();
    QVERIFY(!page->keyringAvailable());
    QSignalSpy status(page, &ProvidersPage::keyStatusUpdated);
    if (keyRef.isEmpty()) {
        page->keySourceCombo()->setCurrentIndex(page->keySourceCombo()->findData(int(ProvidersPage::KeySource::None)));
        // The profile already had no key: ask again by re-selecting it.
        selectProfileRow(0);
    } else {
        page->keySourceCombo()->setCurrentIndex(page->keySourceCombo()->findData(int(ProvidersPage::KeySource::Environment)));
        typeInto(page->keyRefEdit(), keyRef);
        QMetaObject::invokeMethod(page->keyRefEdit(), "editingFinished");
    }
    QTRY_VERIFY(!status.isEmpty());
    const QString text = page->keyStatusLabel()->text();
    QVERIFY2(text.contains(expected), qPrintable(text));
    QVERIFY(!text.contains(kEnvKey));
    // Without a keyring the store button stays off and says why.
    page->keyEdit()->setText(kTypedKey);
    QVERIFY(!page->storeKeyButton()->isEnabled());
    QVERIFY(page->storeKeyButton()->toolTip().contains(u"environment variable"_s));
}

void TestSettingsDialog::testConnectionSucceeds_data()
{
    QTest::addColumn<bool>("anthropic");
    QTest::newRow("openai-chat") << false;
    QTest::newRow("anthropic") << true;
}

void TestSettingsDialog::testConnectionSucceeds()
{
    QFETCH(bool, anthropic);
    ProvidersPage *page = m_dialog->providersPage();
    if (anthropic) {
        page->protocolCombo()->setCurrentIndex(1);
        typeInto(page->baseUrlEdit(), m_server->anthropicBaseUrl().toString());
    }
    m_server->enqueue(FakeReply::withText(u"ready"_s));
    QSignalSpy finished(page, &ProvidersPage::testFinished);
    QTest::mouseClick(page->testButton(), Qt::LeftButton);
    QVERIFY(page->isTesting());
    QVERIFY(page->testButton()->text().contains(u"Cancel"_s));
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    const QString text = page->testStatusLabel()->text();
    QVERIFY2(text.startsWith(u"Connected"_s) && text.contains(u"ready"_s) && text.contains(u" ms"_s), qPrintable(text));
    QCOMPARE(m_server->requestCount(), 1);
    // The profile's protocol picks the client: the request went to that protocol's endpoint.
    const RecordedRequest request = m_server->requests().first();
    QCOMPARE(request.protocol(), anthropic ? u"anthropic"_s : u"openai-chat"_s);
    QCOMPARE(request.json().value(u"model").toString(), u"fake-model"_s);
    QCOMPARE(request.lastUserText(), ProviderCheck::probePrompt());
    QVERIFY(!page->isTesting());
    QVERIFY(!page->testButton()->text().contains(u"Cancel"_s));
}

void TestSettingsDialog::testConnectionReportsFailures_data()
{
    QTest::addColumn<QString>("failure");
    QTest::addColumn<QString>("expected");
    QTest::newRow("401 with a key") << u"401"_s << u"The API key was rejected"_s;
    QTest::newRow("404 model") << u"404"_s << u"Model not found: fake-model"_s;
    QTest::newRow("connection refused") << u"refused"_s << u"Nothing is listening at 127.0.0.1:"_s;
}

void TestSettingsDialog::testConnectionReportsFailures()
{
    QFETCH(QString, failure);
    QFETCH(QString, expected);
    ProvidersPage *page = m_dialog->providersPage();
    // A key from the environment, so the 401 is about a rejected key, not a missing one.
    page->keySourceCombo()->setCurrentIndex(page->keySourceCombo()->findData(int(ProvidersPage::KeySource::Environment)));
    typeInto(page->keyRefEdit(), QString(kEnvKeyName));
    if (failure == u"401") {
        m_server->enqueue(FakeReply::withStatus(
            401, R"({"error":{"message":"Incorrect API key provided.","type":"invalid_request_error","code":"invalid_api_key"}})"));
    } else if (failure == u"404") {
        m_server->enqueue(FakeReply::withStatus(404, R"({"error":{"message":"model 'fake-model' not found"}})"));
    } else {
        const QString url = closedPortUrl();
        QVERIFY(!url.isEmpty());
        typeInto(page->baseUrlEdit(), url);
    }
    QSignalSpy finished(page, &ProvidersPage::testFinished);
    QTest::mouseClick(page->testButton(), Qt::LeftButton);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    const QString text = page->testStatusLabel()->text();
    QVERIFY2(text.startsWith(u"Failed: "_s) && text.contains(expected), qPrintable(text));
    QVERIFY(!text.contains(kEnvKey));
    if (failure == u"401") {
        // The key went out (redacted in the recording) and the provider's own words are shown.
        QVERIFY(m_server->requests().first().hasHeader("Authorization"));
        QVERIFY(text.contains(u"Incorrect API key provided."_s));
        QCOMPARE(m_server->requestCount(), 1);   // no retry for a test
    }
}

void TestSettingsDialog::testConnectionCanBeCancelled()
{
    ProvidersPage *page = m_dialog->providersPage();
    m_server->enqueue(FakeReply::withFault(FakeReply::Fault::Hang));
    QSignalSpy finished(page, &ProvidersPage::testFinished);
    QSignalSpy received(m_server.get(), &FakeLlmServer::requestReceived);
    QTest::mouseClick(page->testButton(), Qt::LeftButton);
    QVERIFY(received.wait(10000));
    QVERIFY(page->isTesting());
    // The dialog stays responsive while the request hangs: the same button cancels.
    QTest::mouseClick(page->testButton(), Qt::LeftButton);
    QCOMPARE(finished.size(), 1);
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QCOMPARE(page->testStatusLabel()->text(), u"Test cancelled."_s);
    QVERIFY(!page->isTesting());
}

void TestSettingsDialog::discoverModels()
{
    ProvidersPage *page = m_dialog->providersPage();
    m_server->setModels({u"qwen3:32b"_s, u"fake-model"_s, u"gpt-oss:20b"_s});
    QSignalSpy finished(page, &ProvidersPage::discoveryFinished);
    QTest::mouseClick(page->discoverButton(), Qt::LeftButton);
    QVERIFY(finished.wait(10000));
    QCOMPARE(finished.at(0).at(0).toBool(), true);
    QStringList items;
    for (int i = 0; i < page->modelCombo()->count(); ++i)
        items << page->modelCombo()->itemText(i);
    QCOMPARE(items, (QStringList{u"fake-model"_s, u"gpt-oss:20b"_s, u"qwen3:32b"_s}));
    QCOMPARE(page->modelCombo()->currentText(), u"fake-model"_s);   // the typed model stays
    QVERIFY(page->discoverStatusLabel()->text().contains(u"Models found: 3"_s));
    QCOMPARE(m_server->requests().first().path, QByteArray("/v1/models"));
    QCOMPARE(m_server->requests().first().method, QByteArray("GET"));
    // Picking one from the list changes the profile.
    page->modelCombo()->setCurrentIndex(2);
    QCOMPARE(m_dialog->profilesModel()->profile(page->currentRow()).model, u"qwen3:32b"_s);
}

void TestSettingsDialog::discoverModelsReportsFailure()
{
    ProvidersPage *page = m_dialog->providersPage();
    typeInto(page->baseUrlEdit(), closedPortUrl());
    QSignalSpy finished(page, &ProvidersPage::discoveryFinished);
    QTest::mouseClick(page->discoverButton(), Qt::LeftButton);
    QVERIFY(finished.wait(15000));
    QCOMPARE(finished.at(0).at(0).toBool(), false);
    QVERIFY2(page->discoverStatusLabel()->text().contains(u"Nothing is listening at 127.0.0.1:"_s),
             qPrintable(page->discoverStatusLabel()->text()));
}

void TestSettingsDialog::typedKeyNeverReachesTheSettingsFile()
{
    ProvidersPage *page = m_dialog->providersPage();
    page->keySourceCombo()->setCurrentIndex(page->keySourceCombo()->findData(int(ProvidersPage::KeySource::Environment)));
    typeInto(page->keyRefEdit(), QString(kEnvKeyName));
    QTest::keyClicks(page->keyEdit(), kTypedKey);
    // The typed key is what "Test connection" sends...
    m_server->enqueue(FakeReply::withText(u"ready"_s));
    QSignalSpy finished(page, &ProvidersPage::testFinished);
    QTest::mouseClick(page->testButton(), Qt::LeftButton);
    QVERIFY(finished.wait(10000));
    QVERIFY(finished.at(0).at(0).toBool());
    // ...and never what is saved, nor the environment's key.
    QTest::mouseClick(m_dialog->buttonBox()->button(QDialogButtonBox::Ok), Qt::LeftButton);
    QCOMPARE(m_dialog->result(), int(QDialog::Accepted));
    const QByteArray bytes = fileBytes(m_settings->fileName());
    QVERIFY(bytes.contains(QByteArray(kEnvKeyName.data(), kEnvKeyName.size())));
    QVERIFY(!bytes.contains(QByteArray(kTypedKey.data(), kTypedKey.size())));
    QVERIFY(!bytes.contains(QByteArray(kEnvKey.data(), kEnvKey.size())));
    QVERIFY(!bytes.contains("sk-"));
    // The fake server's recording is redacted too.
    QVERIFY(!m_server->requests().first().dump().contains(kTypedKey));

    // A key pasted into the key reference field is refused, not saved.
    SettingsDialog again(m_settings.get());
    ProvidersPage *page2 = again.providersPage();
    typeInto(page2->keyRefEdit(), kTypedKey);
    QVERIFY(!page2->problemLabel()->isHidden());
    QVERIFY(!again.apply());
    QVERIFY(!fileBytes(m_settings->fileName()).contains(QByteArray(kTypedKey.data(), kTypedKey.size())));
}

void TestSettingsDialog::invalidProfileIsNotSaved()
{
    const QByteArray before = fileBytes(m_settings->fileName());
    ProvidersPage *page = m_dialog->providersPage();
    m_dialog->showPage(SettingsDialog::Page::Agent);
    typeInto(page->baseUrlEdit(), QString());
    QVERIFY(!page->problemLabel()->isHidden());
    m_dialog->accept();
    QVERIFY(m_dialog->result() != int(QDialog::Accepted));
    QCOMPARE(m_dialog->currentPage(), SettingsDialog::Page::Providers);
    QVERIFY2(m_dialog->lastError().contains(u"Fake"_s), qPrintable(m_dialog->lastError()));
    QCOMPARE(fileBytes(m_settings->fileName()), before);
    // Fixing it lets the dialog save.
    typeInto(page->baseUrlEdit(), m_server->openAiBaseUrl().toString());
    QVERIFY(m_dialog->apply());
    QVERIFY(m_dialog->lastError().isEmpty());
}

void TestSettingsDialog::cancelDropsEditsAndThemePreview()
{
    ThemeManager themes;
    m_dialog->setThemeManager(&themes);
    const QColor windowBefore = QApplication::palette().color(QPalette::Window);
    AppearancePage *appearance = m_dialog->appearancePage();
    appearance->themeCombo()->setCurrentIndex(appearance->themeCombo()->findData(int(AppSettings::Theme::Dark)));
    // Previewed live.
    QVERIFY(QApplication::palette().color(QPalette::Window).lightness() < 100);
    typeInto(m_dialog->providersPage()->nameEdit(), u"Renamed"_s);
    const QByteArray before = fileBytes(m_settings->fileName());
    QTest::keyClick(m_dialog.get(), Qt::Key_Escape);
    QVERIFY(!m_dialog->isVisible());
    QCOMPARE(m_dialog->result(), int(QDialog::Rejected));
    QCOMPARE(QApplication::palette().color(QPalette::Window), windowBefore);
    QCOMPARE(fileBytes(m_settings->fileName()), before);
    QCOMPARE(m_settings->defaultProfileName(), u"Fake"_s);
}

void TestSettingsDialog::agentAndAppearanceAreSaved()
{
    AgentPage *agent = m_dialog->agentPage();
    QComboBox *execute = agent->modeCombo(ApprovalKind::Execute);
    execute->setCurrentIndex(execute->findData(int(ApprovalMode::Allow)));
    agent->turnLimitSpin()->setValue(12);
    AppearancePage *appearance = m_dialog->appearancePage();
    appearance->themeCombo()->setCurrentIndex(appearance->themeCombo()->findData(int(AppSettings::Theme::Light)));
    QVERIFY(appearance->languageNote()->text().contains(u"restarts"_s));
    appearance->languageCombo()->setCurrentIndex(appearance->languageCombo()->findData(u"zh_CN"_s));
    QVERIFY(appearance->languageNote()->text().contains(u"Restart Waterline"_s));
    m_dialog->providersPage()->summarizerCombo()->setCurrentIndex(1);   // the first profile
    QSignalSpy changed(m_settings.get(), &AppSettings::changed);
    QVERIFY(m_dialog->apply());
    QCOMPARE(m_settings->approvalPolicy().mode(ApprovalKind::Execute), ApprovalMode::Allow);
    QCOMPARE(m_settings->approvalPolicy().mode(ApprovalKind::Write), ApprovalMode::Ask);
    QCOMPARE(m_settings->turnLimit(), 12);
    QCOMPARE(m_settings->theme(), AppSettings::Theme::Light);
    QCOMPARE(m_settings->language(), u"zh_CN"_s);
    QCOMPARE(m_settings->summarizerProfileName(), ProviderProfile::defaultProfile().name);
    QList<AppSettings::Key> keys;
    for (const QList<QVariant> &args : std::as_const(changed))
        keys << args.at(0).value<AppSettings::Key>();
    QVERIFY(keys.contains(AppSettings::Key::ApprovalPolicy));
    QVERIFY(keys.contains(AppSettings::Key::TurnLimit));
    QVERIFY(keys.contains(AppSettings::Key::Theme));
    QVERIFY(!keys.contains(AppSettings::Key::ProviderProfiles));   // untouched profiles are not rewritten
}

void TestSettingsDialog::sandboxSettingsAreSaved()
{
    AgentPage *agent = m_dialog->agentPage();
    // The defaults: network on, no unsandboxed commands, nothing extra passed.
    QVERIFY(agent->networkCheck()->isChecked());
    QVERIFY(!agent->unsandboxedCheck()->isChecked());
    QVERIFY(agent->environmentEdit()->text().isEmpty());
    // The refusal of an unsandboxed command names this checkbox by its text.
    QCOMPARE(agent->unsandboxedCheck()->text().remove(u'&'), BashTool::unsandboxedSettingName());

    agent->networkCheck()->setChecked(false);
    agent->unsandboxedCheck()->setChecked(true);
    agent->environmentEdit()->setFocus();
    // '=' and '$' cannot be typed: only names, separated by spaces or commas.
    QTest::keyClicks(agent->environmentEdit(), u"MY_FLAG=$X, OTHER OTHER"_s);
    QCOMPARE(agent->environmentEdit()->text(), u"MY_FLAGX, OTHER OTHER"_s);
    QVERIFY(m_dialog->apply());
    const SandboxPolicy saved = m_settings->approvalPolicy().sandbox();
    QCOMPARE(saved.network, false);
    QCOMPARE(saved.allowUnsandboxed, true);
    QCOMPARE(saved.extraEnvironment, (QStringList{u"MY_FLAGX"_s, u"OTHER"_s}));

    // A dialog opened later shows what was saved.
    SettingsDialog again(m_settings.get());
    QVERIFY(!again.agentPage()->networkCheck()->isChecked());
    QVERIFY(again.agentPage()->unsandboxedCheck()->isChecked());
    QCOMPARE(again.agentPage()->environmentEdit()->text(), u"MY_FLAGX OTHER"_s);
}

void TestSettingsDialog::keyboardAndNames()
{
    // Every input has a label that points at it, and an object name.
    const QList<QWidget *> inputs = m_dialog->findChildren<QWidget *>();
    int checked = 0;
    for (QWidget *w : inputs) {
        if (!qobject_cast<QLineEdit *>(w) && !qobject_cast<QComboBox *>(w) && !qobject_cast<QAbstractSpinBox *>(w))
            continue;
        if (qobject_cast<QLineEdit *>(w) && qobject_cast<QComboBox *>(w->parentWidget()))
            continue;   // the line edit inside an editable combo
        if (qobject_cast<QLineEdit *>(w) && qobject_cast<QAbstractSpinBox *>(w->parentWidget()))
            continue;
        QVERIFY2(!w->objectName().isEmpty(), w->metaObject()->className());
        bool hasBuddy = false;
        for (QLabel *label : m_dialog->findChildren<QLabel *>())
            hasBuddy = hasBuddy || label->buddy() == w;
        const bool namedBySibling = w->objectName() == u"keyRefEdit";
        QVERIFY2(hasBuddy || namedBySibling, qPrintable(w->objectName()));
        ++checked;
    }
    QVERIFY(checked >= 15);
    // Within a page every mnemonic is used once (Alt+letter reaches one control).
    const QList<QWidget *> pages{m_dialog->providersPage(), m_dialog->compactionPage(), m_dialog->agentPage(),
                                m_dialog->appearancePage()};
    for (QWidget *page : pages) {
        QMap<QChar, QString> seen;
        QStringList texts;
        for (QLabel *label : page->findChildren<QLabel *>())
            texts << label->text();
        for (QAbstractButton *button : page->findChildren<QAbstractButton *>())
            texts << button->text();
        for (const QString &text : std::as_const(texts)) {
            const qsizetype amp = text.indexOf(u'&');
            if (amp < 0 || amp + 1 >= text.size() || text.at(amp + 1) == u'&' || text.at(amp + 1) == u' ')
                continue;
            const QChar key = text.at(amp + 1).toLower();
            QVERIFY2(!seen.contains(key), qPrintable(u"%1: \"%2\" and \"%3\""_s.arg(page->objectName(), seen.value(key), text)));
            seen.insert(key, text);
        }
        QVERIFY(seen.size() >= 2);
    }
    QPushButton *ok = m_dialog->buttonBox()->button(QDialogButtonBox::Ok);
    QVERIFY(ok->isDefault());
    for (QPushButton *button : m_dialog->findChildren<QPushButton *>()) {
        if (button != ok && m_dialog->buttonBox()->buttonRole(button) == QDialogButtonBox::InvalidRole)
            QVERIFY2(!button->autoDefault(), qPrintable(button->objectName()));
    }
}

void TestSettingsDialog::screenshot()
{
    // The page as a user sees it after discovering the models and testing the connection.
    ProvidersPage *page = m_dialog->providersPage();
    m_server->setModels({u"fake-model"_s, u"qwen3:8b"_s, u"llama3.1:8b"_s});
    m_server->enqueue(FakeReply::withText(u"ready"_s));
    QSignalSpy discovered(page, &ProvidersPage::discoveryFinished);
    QTest::mouseClick(page->discoverButton(), Qt::LeftButton);
    QVERIFY(discovered.wait(10000));
    QSignalSpy tested(page, &ProvidersPage::testFinished);
    QTest::mouseClick(page->testButton(), Qt::LeftButton);
    QVERIFY(tested.wait(10000));
    QTRY_VERIFY(!page->keyStatusLabel()->text().isEmpty());
    QVERIFY(page->testStatusLabel()->isVisible());
    QVERIFY(page->discoverStatusLabel()->isVisible());
    const QPixmap shot = m_dialog->grab();
    QCOMPARE(shot.size(), m_dialog->size() * shot.devicePixelRatio());
    // The page is drawn, not blank: more than a handful of colours.
    const QImage image = shot.toImage();
    QSet<QRgb> colours;
    for (int y = 0; y < image.height(); y += 7)
        for (int x = 0; x < image.width(); x += 7)
            colours.insert(image.pixel(x, y));
    QVERIFY(colours.size() > 5);
    const QByteArray dir = qgetenv("WATERLINE_SCREENSHOT_DIR");
    if (!dir.isEmpty())
        QVERIFY(shot.save(QString::fromLocal8Bit(dir) + u"/settings-dialog.png"_s, "PNG"));
    // Every other page draws something of its own.
    const QList<std::pair<SettingsDialog::Page, QString>> pages{{SettingsDialog::Page::Compaction, u"compaction"_s},
                                                                {SettingsDialog::Page::Agent, u"agent"_s},
                                                                {SettingsDialog::Page::Appearance, u"appearance"_s}};
    for (const auto &[which, name] : pages) {
        m_dialog->showPage(which);
        QCOMPARE(m_dialog->currentPage(), which);
        QTest::qWait(50);   // let the newly shown page lay itself out before it is drawn
        const QPixmap pageShot = m_dialog->grab();
        QVERIFY(pageShot.toImage() != image);
        if (!dir.isEmpty())
            QVERIFY(pageShot.save(QString::fromLocal8Bit(dir) + u"/settings-"_s + name + u".png"_s, "PNG"));
    }
}

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
