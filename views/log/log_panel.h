// The log panel: timestamped, levelled messages (info, warning, error);
// errors keep their FILE:LINE:COL location text.
#pragma once

#include <QWidget>

class QPlainTextEdit;

namespace hloscope::views {

class LogPanel : public QWidget {
  Q_OBJECT

 public:
  enum class Level { kInfo, kWarning, kError };
  explicit LogPanel(QWidget* parent = nullptr);

  void info(const QString& text) { append(Level::kInfo, text); }
  void warning(const QString& text) { append(Level::kWarning, text); }
  void error(const QString& text) { append(Level::kError, text); }
  void append(Level level, const QString& text);
  QString text() const;
  int errorCount() const { return errors_; }

 private:
  QPlainTextEdit* edit_;
  int errors_ = 0;
};

}  // namespace hloscope::views
