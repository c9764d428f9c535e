// Lexer tests: token kinds and spellings, line/column on every token, INDENT/DEDENT, brackets, continuation
// lines, numbers, strings, f-string token sequences, and located lexical errors.
#include <gtest/gtest.h>

#include "frontend/lexer.h"

namespace tz {
namespace {

// Renders tokens compactly: names, numbers and operators by spelling, strings by their decoded value in
// double quotes, and NL / IN / DE / EOF / ERR(message) for the rest.
std::string render(const std::vector<Token>& toks) {
  std::string out;
  for (const Token& t : toks) {
    if (!out.empty()) out += ' ';
    switch (t.kind) {
      case TokKind::Newline: out += "NL"; break;
      case TokKind::Indent: out += "IN"; break;
      case TokKind::Dedent: out += "DE"; break;
      case TokKind::EndOfFile: out += "EOF"; break;
      case TokKind::Error: out += "ERR(" + t.value + ")"; break;
      case TokKind::Str: out += (t.bytes ? "b\"" : "\"") + t.value + "\""; break;
      case TokKind::FStringStart: out += "FSTART"; break;
      case TokKind::FStringMiddle: out += "FMID(" + t.value + ")"; break;
      case TokKind::FStringEnd: out += "FEND"; break;
      default: out += std::string(t.text);
    }
  }
  return out;
}

std::string lex_text(const std::string& text) {
  SourceFile file{"t.py", text};
  return render(lex(file));
}

std::vector<Token> lex_tokens(const SourceFile& file) { return lex(file); }

TEST(Lexer, SimpleStatement) {
  EXPECT_EQ(lex_text("x = y + 1\n"), "x = y + 1 NL EOF");
  EXPECT_EQ(lex_text(""), "EOF");
  EXPECT_EQ(lex_text("\n\n   \n# only a comment\n"), "EOF");
}

TEST(Lexer, MissingFinalNewlineStillEndsTheLine) {
  EXPECT_EQ(lex_text("x = 1"), "x = 1 NL EOF");
  EXPECT_EQ(lex_text("if x:\n  y"), "if x : NL IN y NL DE EOF");
}

TEST(Lexer, LineAndColumnOnEveryToken) {
  SourceFile file{"t.py", "def f(a):\n    return a\n"};
  std::vector<Token> toks = lex_tokens(file);
  ASSERT_EQ(render(toks), "def f ( a ) : NL IN return a NL DE EOF");
  auto at = [&](size_t i) { return std::to_string(toks[i].loc.line) + ":" + std::to_string(toks[i].loc.col); };
  EXPECT_EQ(at(0), "1:1");   // def
  EXPECT_EQ(at(1), "1:5");   // f
  EXPECT_EQ(at(2), "1:6");   // (
  EXPECT_EQ(at(3), "1:7");   // a
  EXPECT_EQ(at(5), "1:9");   // :
  EXPECT_EQ(at(6), "1:10");  // NEWLINE, at the end of the line
  EXPECT_EQ(at(7), "2:5");   // INDENT
  EXPECT_EQ(at(8), "2:5");   // return
  EXPECT_EQ(at(9), "2:12");  // a
  for (const Token& t : toks) {
    EXPECT_EQ(t.loc.file, &file);
    EXPECT_GE(t.loc.line, 1);
    EXPECT_GE(t.loc.col, 1);
  }
}

TEST(Lexer, IndentAndDedent) {
  EXPECT_EQ(lex_text("if a:\n    if b:\n        c\n    d\ne\n"),
            "if a : NL IN if b : NL IN c NL DE d NL DE e NL EOF");
  // Two levels closed by one line; blank lines and comment lines (at any indentation) do not count.
  EXPECT_EQ(lex_text("if a:\n  if b:\n\n      # comment\n    c\nd\n"),
            "if a : NL IN if b : NL IN c NL DE DE d NL EOF");
  // Open blocks are closed at the end of the file.
  EXPECT_EQ(lex_text("class A:\n  def f(self):\n    pass\n"),
            "class A : NL IN def f ( self ) : NL IN pass NL DE DE EOF");
}

TEST(Lexer, TabsAdvanceToMultiplesOfEight) {
  // A tab and eight spaces are the same level; a tab after two spaces is still column 8.
  EXPECT_EQ(lex_text("if a:\n\tb\n        c\n  \td\n"), "if a : NL IN b NL c NL d NL DE EOF");
}

TEST(Lexer, InconsistentDedentIsALocatedError) {
  SourceFile file{"t.py", "if a:\n    b\n  c\nd\n"};
  std::vector<Token> toks = lex_tokens(file);
  EXPECT_EQ(render(toks),
            "if a : NL IN b NL DE ERR(unindent does not match any outer indentation level) c NL d NL EOF");
  EXPECT_EQ(toks[8].loc.line, 3);
  EXPECT_EQ(toks[8].loc.col, 3);
}

TEST(Lexer, NoNewlineInsideBrackets) {
  EXPECT_EQ(lex_text("x = (1,\n     2)\ny = [a,\n  {b:\n c}]\n"),
            "x = ( 1 , 2 ) NL y = [ a , { b : c } ] NL EOF");
  // Indentation inside brackets is ignored too.
  EXPECT_EQ(lex_text("if f(a,\n        b):\n  c\n"), "if f ( a , b ) : NL IN c NL DE EOF");
}

TEST(Lexer, BackslashContinuation) {
  EXPECT_EQ(lex_text("x = 1 + \\\n    2\ny\n"), "x = 1 + 2 NL y NL EOF");
  EXPECT_EQ(lex_text("x = 1 \\ 2\n"), "x = 1 ERR(unexpected character after line continuation character) 2 NL EOF");
}

TEST(Lexer, ContinuationInsideIndentation) {
  // As in CPython: a backslash at column 0 leaves the indentation to the next line; a line made blank by a
  // continuation is skipped; otherwise the first backslash's column is the indentation.
  EXPECT_EQ(lex_text("class A:\n    x\n\\\n    y\n"), "class A : NL IN x NL y NL DE EOF");
  EXPECT_EQ(lex_text("class A:\n    x\n\\\n\n    y\n"), "class A : NL IN x NL y NL DE EOF");
  EXPECT_EQ(lex_text("if a:\n    x\n  \\\n    y\n"),
            "if a : NL IN x NL DE ERR(unindent does not match any outer indentation level) y NL EOF");
}

TEST(Lexer, CommentsAndCrlf) {
  EXPECT_EQ(lex_text("x = 1  # one\r\nif x:\r\n  y # two\r\n"), "x = 1 NL if x : NL IN y NL DE EOF");
}

TEST(Lexer, Keywords) {
  EXPECT_EQ(lex_text("def class lambda None True False and or not in is yield await async\n"),
            "def class lambda None True False and or not in is yield await async NL EOF");
  SourceFile file{"t.py", "import match_ as_ match\n"};
  std::vector<Token> toks = lex_tokens(file);
  EXPECT_EQ(toks[0].kind, TokKind::KwImport);
  EXPECT_EQ(toks[1].kind, TokKind::Name);
  EXPECT_EQ(toks[2].kind, TokKind::Name);
  EXPECT_EQ(toks[3].kind, TokKind::Name);  // soft keyword: a name for the lexer
}

TEST(Lexer, Operators) {
  const char* ops = "** // @ -> := += -= *= /= //= %= **= @= &= |= ^= >>= <<= == != <= >= < > ~ & | ^ << >> ...";
  SourceFile file{"t.py", ops};
  std::vector<Token> toks = lex_tokens(file);
  EXPECT_EQ(render(toks), std::string(ops) + " NL EOF");
  for (const Token& t : toks) {
    if (t.kind == TokKind::Newline || t.kind == TokKind::EndOfFile) continue;
    EXPECT_EQ(token_kind_spelling(t.kind), t.text) << "one token per operator";
  }
  EXPECT_EQ(lex_text("a**-b//c"), "a ** - b // c NL EOF");
}

TEST(Lexer, Integers) {
  SourceFile file{"t.py", "0 7 1_000 0x1F 0XfF 0o17 0b101 0x_ff 00 9223372036854775807\n"};
  std::vector<Token> toks = lex_tokens(file);
  std::vector<int64_t> want = {0, 7, 1000, 31, 255, 15, 5, 255, 0, 9223372036854775807LL};
  ASSERT_EQ(toks.size(), want.size() + 2);
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokKind::Int) << i;
    EXPECT_EQ(toks[i].int_value, want[i]) << i;
  }
}

TEST(Lexer, Floats) {
  SourceFile file{"t.py", "1. .5 1e-3 1.5E+2 1_0.2_5 3e2 0.0\n"};
  std::vector<Token> toks = lex_tokens(file);
  std::vector<double> want = {1.0, 0.5, 1e-3, 150.0, 10.25, 300.0, 0.0};
  ASSERT_EQ(toks.size(), want.size() + 2);
  for (size_t i = 0; i < want.size(); ++i) {
    EXPECT_EQ(toks[i].kind, TokKind::Float) << i;
    EXPECT_DOUBLE_EQ(toks[i].float_value, want[i]) << i;
  }
  // `1 if x else 2` written without spaces still lexes the number and the keyword apart.
  EXPECT_EQ(lex_text("1if x else 2"), "1 if x else 2 NL EOF");
}

TEST(Lexer, BadNumbers) {
  EXPECT_EQ(lex_text("1__0"), "ERR(invalid decimal literal) NL EOF");
  EXPECT_EQ(lex_text("1_"), "ERR(invalid decimal literal) NL EOF");
  EXPECT_EQ(lex_text("0x"), "ERR(invalid hexadecimal literal) NL EOF");
  EXPECT_EQ(lex_text("0b102"), "ERR(invalid binary literal) NL EOF");
  EXPECT_EQ(lex_text("1j"), "ERR(complex literals are not supported) NL EOF");
  EXPECT_EQ(lex_text("0777"),
            "ERR(leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal) NL EOF");
  EXPECT_EQ(lex_text("9223372036854775808"), "ERR(integer literal is too large (more than 64 bits)) NL EOF");
}

TEST(Lexer, Strings) {
  EXPECT_EQ(lex_text("'a' \"b\" '''c\nd''' \"\"\"e'f\"\"\"\n"), "\"a\" \"b\" \"c\nd\" \"e'f\" NL EOF");
  EXPECT_EQ(lex_text(R"('\n\t\\\'\x41\101\u00e9' r'\n\'' b'\xff' rb'\d' R"x" u'u')"),
            "\"\n\t\\'AAé\" \"\\n\\'\" b\"\xff\" b\"\\d\" \"x\" \"u\" NL EOF");
  // Unknown escapes keep their backslash; backslash-newline inside a literal joins the lines.
  EXPECT_EQ(lex_text("'\\d' 'a\\\nb'"), "\"\\d\" \"ab\" NL EOF");
}

TEST(Lexer, MultiLineStringKeepsLineNumbers) {
  SourceFile file{"t.py", "x = '''a\nb\nc'''\ny = 1\n"};
  std::vector<Token> toks = lex_tokens(file);
  ASSERT_EQ(render(toks), "x = \"a\nb\nc\" NL y = 1 NL EOF");
  EXPECT_EQ(toks[4].loc.line, 4);  // y
  EXPECT_EQ(toks[4].loc.col, 1);
}

TEST(Lexer, BadStrings) {
  EXPECT_EQ(lex_text("x = 'abc\ny = 1\n"), "x = ERR(unterminated string literal) NL y = 1 NL EOF");
  EXPECT_EQ(lex_text("x = '''abc\n"), "x = ERR(unterminated triple-quoted string literal) NL EOF");
  EXPECT_EQ(lex_text("'\\x4'"), "ERR(truncated \\x escape) NL EOF");
  EXPECT_EQ(lex_text("b'\xc3\xa9'"), "ERR(bytes can only contain ASCII literal characters) NL EOF");
  EXPECT_EQ(lex_text("'\\N{DASH}'"), "ERR('\\N{...}' escapes are not supported) NL EOF");
}

TEST(Lexer, FStringTokens) {
  EXPECT_EQ(lex_text("f'a{x}b'"), "FSTART FMID(a) { x } FMID(b) FEND NL EOF");
  EXPECT_EQ(lex_text("f\"{x!r:>{w}}{{}}\""), "FSTART { x ! r : FMID(>) { w } } FMID({}) FEND NL EOF");
  EXPECT_EQ(lex_text("f'{d[\"k\"]:.3f}'"), "FSTART { d [ \"k\" ] : FMID(.3f) } FEND NL EOF");
  EXPECT_EQ(lex_text("f'{a != b}'"), "FSTART { a != b } FEND NL EOF");
  EXPECT_EQ(lex_text("rf'\\d{x}'"), "FSTART FMID(\\d) { x } FEND NL EOF");
  EXPECT_EQ(lex_text("f'''a\n{x\n}'''"), "FSTART FMID(a\n) { x } FEND NL EOF");
}

TEST(Lexer, BadFStrings) {
  EXPECT_EQ(lex_text("f'{x' + 1"), "FSTART { x ERR(f-string: expecting '}') + 1 NL EOF");
  EXPECT_EQ(lex_text("f'}'\ny"), "FSTART ERR(f-string: single '}' is not allowed) NL y NL EOF");
  EXPECT_EQ(lex_text("f'{a\\n}'"), "FSTART { a ERR(f-string expression part cannot include a backslash) NL EOF");
  EXPECT_EQ(lex_text("f'abc\nx"), "FSTART ERR(unterminated f-string) NL x NL EOF");
  // Deeply nested specs and f-strings stop with an error instead of recursing without bound.
  std::string specs = "f'";
  for (int i = 0; i < 5000; ++i) specs += "{x:";
  EXPECT_NE(lex_text(specs + "'").find("ERR(f-string: expressions nested too deeply)"), std::string::npos);
  std::string nested;
  for (int i = 0; i < 5000; ++i) nested += i % 2 ? "f\"{" : "f'{";
  EXPECT_NE(lex_text(nested).find("ERR(f-strings nested too deeply)"), std::string::npos);
}

TEST(Lexer, InvalidCharacters) {
  SourceFile file{"t.py", "a = $b ? \x01"};
  std::vector<Token> toks = lex_tokens(file);
  EXPECT_EQ(render(toks),
            "a = ERR(invalid character '$') b ERR(invalid character '?') ERR(invalid character '\\x01') NL EOF");
  EXPECT_EQ(toks[2].loc.col, 5);
}

TEST(Lexer, UnclosedBracketEndsAtAStatementKeyword) {
  SourceFile file{"t.py", "x = (1,\n  [2\ndef f():\n  pass\n"};
  std::vector<Token> toks = lex_tokens(file);
  EXPECT_EQ(render(toks),
            "x = ( 1 , [ 2 ERR('[' was never closed) NL def f ( ) : NL IN pass NL DE EOF");
  EXPECT_EQ(toks[7].loc.line, 2);  // the innermost open bracket
  EXPECT_EQ(toks[7].loc.col, 3);
  // An `if` or `else` line may continue an expression, so it does not end the bracket.
  EXPECT_EQ(lex_text("x = (a\nif b\nelse c)\n"), "x = ( a if b else c ) NL EOF");
}

TEST(Lexer, NonAsciiIdentifiers) {
  EXPECT_EQ(lex_text("\xc3\xa9t\xc3\xa9 = 1\n"), "\xc3\xa9t\xc3\xa9 = 1 NL EOF");
}

TEST(Lexer, DescribeToken) {
  SourceFile file{"t.py", "foo (\n"};
  std::vector<Token> toks = lex_tokens(file);
  EXPECT_EQ(describe_token(toks[0]), "'foo'");
  EXPECT_EQ(describe_token(toks[1]), "'('");
  EXPECT_EQ(describe_token(toks.back()), "end of file");
}

}  // namespace
}  // namespace tz
