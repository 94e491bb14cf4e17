// BoundedInteger: whole numbers from untrusted JSON and command lines, range-checked before any
// conversion, with an error that names the field.
#include "model/BoundedInteger.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonValue>
#include <QTest>

#include <limits>

using namespace wl;
using namespace Qt::StringLiterals;

namespace {

// A value as Qt's JSON parser produces it from `text` (integers that fit are kept exact).
QJsonValue parsed(const QByteArray &text)
{
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson("[" + text + "]", &error);
    if (error.error != QJsonParseError::NoError)
        qFatal("test data is not JSON: %s", text.constData());
    return doc.array().at(0);
}

constexpr qint64 twoTo62 = qint64(1) << 62;

} // namespace

class TestBoundedInteger : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void json_data();
    void json();
    void text_data();
    void text();
};

void TestBoundedInteger::json_data()
{
    QTest::addColumn<QJsonValue>("value");
    QTest::addColumn<qint64>("minimum");
    QTest::addColumn<qint64>("maximum");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<qint64>("expected");

    const qint64 window = BoundedInteger::maxTokens;
    QTest::newRow("plain") << parsed("128000") << qint64(1) << window << true << qint64(128000);
    QTest::newRow("whole double") << parsed("2.0e3") << qint64(1) << window << true << qint64(2000);
    QTest::newRow("lower bound") << parsed("0") << qint64(0) << window << true << qint64(0);
    QTest::newRow("upper bound 2^62") << parsed("4611686018427387904") << qint64(0) << twoTo62 << true << twoTo62;
    QTest::newRow("2^53+1 exact") << parsed("9007199254740993") << qint64(0) << twoTo62 << true << qint64(9007199254740993);
    QTest::newRow("below minimum") << parsed("0") << qint64(1) << window << false << qint64(0);
    QTest::newRow("minus one") << parsed("-1") << qint64(0) << window << false << qint64(0);
    QTest::newRow("minus five") << parsed("-5") << qint64(1) << window << false << qint64(0);
    QTest::newRow("one past 2^62") << parsed("4611686018427387905") << qint64(0) << twoTo62 << false << qint64(0);
    QTest::newRow("int64 max") << parsed("9223372036854775807") << qint64(1) << window << false << qint64(0);
    QTest::newRow("2^63") << parsed("9223372036854775808") << qint64(1) << window << false << qint64(0);
    QTest::newRow("int64 min") << parsed("-9223372036854775808") << qint64(-10) << window << false << qint64(0);
    QTest::newRow("1e300") << parsed("1e300") << qint64(1) << window << false << qint64(0);
    QTest::newRow("-1e300") << parsed("-1e300") << -twoTo62 << twoTo62 << false << qint64(0);
    QTest::newRow("fractional") << parsed("1.5") << qint64(0) << window << false << qint64(0);
    QTest::newRow("tiny fraction") << parsed("1e-300") << qint64(0) << window << false << qint64(0);
    QTest::newRow("NaN") << QJsonValue(std::numeric_limits<double>::quiet_NaN()) << qint64(0) << window << false << qint64(0);
    QTest::newRow("infinity") << QJsonValue(std::numeric_limits<double>::infinity()) << qint64(0) << window << false << qint64(0);
    QTest::newRow("digits in a string") << parsed("\"12\"") << qint64(0) << window << false << qint64(0);
    QTest::newRow("NaN string") << parsed("\"NaN\"") << qint64(0) << window << false << qint64(0);
    QTest::newRow("empty string") << parsed("\"\"") << qint64(0) << window << false << qint64(0);
    QTest::newRow("null") << parsed("null") << qint64(0) << window << false << qint64(0);
    QTest::newRow("true") << parsed("true") << qint64(0) << window << false << qint64(0);
    QTest::newRow("array") << parsed("[1]") << qint64(0) << window << false << qint64(0);
    QTest::newRow("missing") << QJsonValue(QJsonValue::Undefined) << qint64(0) << window << false << qint64(0);
}

void TestBoundedInteger::json()
{
    QFETCH(QJsonValue, value);
    QFETCH(qint64, minimum);
    QFETCH(qint64, maximum);
    QFETCH(bool, accepted);
    QFETCH(qint64, expected);

    QString error;
    const std::optional<qint64> read = BoundedInteger::fromJson(value, minimum, maximum, u"context_window"_s, &error);
    QCOMPARE(read.has_value(), accepted);
    if (accepted) {
        QCOMPARE(*read, expected);
        QVERIFY(error.isEmpty());
    } else {
        QVERIFY2(error.startsWith(u"context_window: "_s), qPrintable(error));
    }
    // Without an error pointer the answer is the same.
    QCOMPARE(BoundedInteger::fromJson(value, minimum, maximum, u"x"_s).has_value(), accepted);
}

void TestBoundedInteger::text_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<qint64>("minimum");
    QTest::addColumn<qint64>("maximum");
    QTest::addColumn<bool>("accepted");
    QTest::addColumn<qint64>("expected");

    const qint64 window = BoundedInteger::maxTokens;
    QTest::newRow("plain") << u"128000"_s << qint64(1) << window << true << qint64(128000);
    QTest::newRow("plus sign") << u"+7"_s << qint64(1) << window << true << qint64(7);
    QTest::newRow("leading zeros") << u"007"_s << qint64(1) << window << true << qint64(7);
    QTest::newRow("negative allowed") << u"-3"_s << qint64(-5) << window << true << qint64(-3);
    QTest::newRow("upper bound") << u"1000000000000"_s << qint64(1) << window << true << window;
    QTest::newRow("2^53+1 exact") << u"9007199254740993"_s << qint64(0) << twoTo62 << true << qint64(9007199254740993);
    QTest::newRow("past upper bound") << u"1000000000001"_s << qint64(1) << window << false << qint64(0);
    QTest::newRow("minus one") << u"-1"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("int64 max") << u"9223372036854775807"_s << qint64(1) << window << false << qint64(0);
    QTest::newRow("2^63") << u"9223372036854775808"_s << qint64(1) << window << false << qint64(0);
    QTest::newRow("many digits") << u"99999999999999999999999999999999"_s << qint64(1) << twoTo62 << false << qint64(0);
    QTest::newRow("1e300") << u"1e300"_s << qint64(1) << window << false << qint64(0);
    QTest::newRow("fractional") << u"1.5"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("whole with point") << u"2.0"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("NaN") << u"NaN"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("inf") << u"inf"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("12abc") << u"12abc"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("hex") << u"0x10"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("empty") << QString() << qint64(0) << window << false << qint64(0);
    QTest::newRow("sign only") << u"-"_s << qint64(-5) << window << false << qint64(0);
    QTest::newRow("leading space") << u" 12"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("trailing space") << u"12 "_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("arabic digits") << u"\u0661\u0662"_s << qint64(0) << window << false << qint64(0);
    QTest::newRow("fullwidth digits") << u"\uFF11\uFF12"_s << qint64(0) << window << false << qint64(0);
}

void TestBoundedInteger::text()
{
    QFETCH(QString, text);
    QFETCH(qint64, minimum);
    QFETCH(qint64, maximum);
    QFETCH(bool, accepted);
    QFETCH(qint64, expected);

    QString error;
    const std::optional<qint64> read = BoundedInteger::fromString(text, minimum, maximum, u"--window"_s, &error);
    QCOMPARE(read.has_value(), accepted);
    if (accepted) {
        QCOMPARE(*read, expected);
    } else {
        QVERIFY2(error.startsWith(u"--window: "_s), qPrintable(error));
        // The range is in the message, so the user knows what to give instead.
        QVERIFY2(error.contains(QString::number(maximum)), qPrintable(error));
    }
}

QTEST_GUILESS_MAIN(TestBoundedInteger)
#include "tst_boundedinteger.moc"
