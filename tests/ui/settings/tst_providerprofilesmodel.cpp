#include "settings/ProviderProfilesModel.h"

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTest>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

ProviderProfile profile(const QString &name, const QString &model = u"qwen3"_s)
{
    ProviderProfile p = ProviderProfile::defaultProfile();
    p.name = name;
    p.model = model;
    return p;
}

QStringList names(const ProviderProfilesModel &model)
{
    QStringList out;
    for (const ProviderProfile &p : model.profiles())
        out << p.name;
    return out;
}

} // namespace

class TestProviderProfilesModel : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void testerThroughEveryEdit();
    void defaultFollowsRemovals_data();
    void defaultFollowsRemovals();
    void uniqueNames();
    void problems_data();
    void problems();
};

void TestProviderProfilesModel::testerThroughEveryEdit()
{
    ProviderProfilesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProfiles({profile(u"A"_s), profile(u"B"_s)}, u"B"_s);
    QCOMPARE(model.rowCount(), 2);
    QCOMPARE(model.defaultRow(), 1);
    QCOMPARE(model.index(1).data(ProviderProfilesModel::IsDefaultRole).toBool(), true);
    QVERIFY(model.index(1).data(Qt::DisplayRole).toString().contains(u"B"_s));
    QVERIFY(model.index(1).data(Qt::DisplayRole).toString() != model.index(1).data(ProviderProfilesModel::NameRole).toString());
    QCOMPARE(model.index(0).data(Qt::DisplayRole).toString(), u"A"_s);

    QSignalSpy changed(&model, &QAbstractItemModel::dataChanged);
    ProviderProfile edited = profile(u"A2"_s, u"llama3.1"_s);
    model.setProfile(0, edited);
    QVERIFY(!changed.isEmpty());
    QCOMPARE(model.index(0).data(ProviderProfilesModel::ProfileRole).value<ProviderProfile>(), edited);
    QCOMPARE(model.index(0).data(ProviderProfilesModel::ModelRole).toString(), u"llama3.1"_s);
    changed.clear();
    model.setProfile(0, edited);   // no change, no signal
    QCOMPARE(changed.size(), 0);

    const int added = model.addProfile(profile(u"A2"_s));
    QCOMPARE(added, 2);
    QCOMPARE(model.profile(added).name, u"A2 2"_s);
    const int copy = model.duplicateProfile(1);
    QCOMPARE(model.profile(copy).name, u"B (copy)"_s);
    QCOMPARE(model.profile(copy).model, model.profile(1).model);
    QCOMPARE(model.duplicateProfile(17), -1);

    model.setDefaultRow(0);
    QCOMPARE(model.defaultName(), u"A2"_s);
    QVERIFY(model.removeProfile(2));
    QVERIFY(!model.removeProfile(5));
    QCOMPARE(names(model), (QStringList{u"A2"_s, u"B"_s, u"B (copy)"_s}));
    QCOMPARE(model.rowOf(u"B (copy)"_s), 2);
    QCOMPARE(model.rowOf(u"nope"_s), -1);
    model.setProfiles({}, QString());
    QCOMPARE(model.rowCount(), 0);
    QCOMPARE(model.defaultRow(), -1);
    QCOMPARE(model.addProfile(profile(QString())), 0);
    QCOMPARE(model.defaultRow(), 0);   // the first profile becomes the default
    QVERIFY(!model.profile(0).name.isEmpty());
}

void TestProviderProfilesModel::defaultFollowsRemovals_data()
{
    QTest::addColumn<int>("defaultRow");
    QTest::addColumn<int>("removed");
    QTest::addColumn<QString>("expectedDefault");
    QTest::newRow("remove before the default") << 2 << 0 << u"C"_s;
    QTest::newRow("remove after the default") << 0 << 2 << u"A"_s;
    QTest::newRow("remove the default") << 1 << 1 << u"A"_s;
    QTest::newRow("remove the first, which is default") << 0 << 0 << u"B"_s;
}

void TestProviderProfilesModel::defaultFollowsRemovals()
{
    QFETCH(int, defaultRow);
    QFETCH(int, removed);
    QFETCH(QString, expectedDefault);
    ProviderProfilesModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setProfiles({profile(u"A"_s), profile(u"B"_s), profile(u"C"_s)}, QString());
    model.setDefaultRow(defaultRow);
    QVERIFY(model.removeProfile(removed));
    QCOMPARE(model.defaultName(), expectedDefault);
    int defaults = 0;
    for (int row = 0; row < model.rowCount(); ++row)
        defaults += model.index(row).data(ProviderProfilesModel::IsDefaultRole).toBool() ? 1 : 0;
    QCOMPARE(defaults, 1);
}

void TestProviderProfilesModel::uniqueNames()
{
    ProviderProfilesModel model;
    model.setProfiles({profile(u"Local"_s), profile(u"Local 2"_s)}, QString());
    QCOMPARE(model.uniqueName(u"Local"_s), u"Local 3"_s);
    QCOMPARE(model.uniqueName(u"Other"_s), u"Other"_s);
    QCOMPARE(model.uniqueName(u"Local"_s, 0), u"Local"_s);   // its own row does not count
}

void TestProviderProfilesModel::problems_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QString>("problemContains");
    QTest::newRow("fine") << QString() << QString() << QString();
    QTest::newRow("empty name") << u"name"_s << u" "_s << u"name"_s;
    QTest::newRow("repeated name") << u"name"_s << u"Other"_s << u"also called"_s;
    QTest::newRow("bad url") << u"url"_s << u"not a url"_s << u"http(s)"_s;
    QTest::newRow("no model") << u"model"_s << QString() << u"model"_s;
    QTest::newRow("key pasted as reference") << u"keyRef"_s << u"sk-ant-api03-abcdefghijklmnopqrstuvwxyz012345"_s
                                             << u"API key"_s;
}

void TestProviderProfilesModel::problems()
{
    QFETCH(QString, field);
    QFETCH(QString, value);
    QFETCH(QString, problemContains);
    ProviderProfilesModel model;
    model.setProfiles({profile(u"Mine"_s), profile(u"Other"_s)}, QString());
    ProviderProfile p = model.profile(0);
    if (field == u"name")
        p.name = value;
    else if (field == u"url")
        p.baseUrl = QUrl(value);
    else if (field == u"model")
        p.model = value;
    else if (field == u"keyRef")
        p.keyRef = value;
    model.setProfile(0, p);
    const QString problem = model.index(0).data(ProviderProfilesModel::ProblemRole).toString();
    int row = -2;
    const QString first = model.firstProblem(&row);
    if (problemContains.isEmpty()) {
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
        QVERIFY(first.isEmpty());
        QCOMPARE(row, -1);
    } else {
        QVERIFY2(problem.contains(problemContains, Qt::CaseInsensitive), qPrintable(problem));
        QCOMPARE(row, 0);
        QVERIFY(first.contains(problem));
    }
}

QTEST_GUILESS_MAIN(TestProviderProfilesModel)
#include "tst_providerprofilesmodel.moc"
