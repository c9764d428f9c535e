// Lexer: Python source -> tokens. It owns indentation (INDENT/DEDENT from a stack, NEWLINE only outside
// brackets), so the parser never looks at whitespace. Every token carries its 1-based line and column.
// A lexical error becomes a TokKind::Error token carrying its message; the parser reports it where it meets
// it, so that all errors come out in source order.
//
// An f-string is a token sequence, as in CPython 3.12: FStringStart, then FStringMiddle (literal text, decoded)
// and fields `{` expression-tokens [`=`] [`!` name] [`:` spec-pieces] `}`, then FStringEnd. As before 3.12, a
// field cannot contain the f-string's own quote, a backslash or a comment.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "support/diagnostics.h"

namespace tz {

// X(enumerator, spelling). Punctuation and keywords are spelled as in Python; other kinds by a description.
#define TZ_TOKEN_KINDS(X)                                                                                   \
  X(EndOfFile, "end of file")                                                                               \
  X(Newline, "end of line")                                                                                 \
  X(Indent, "indent")                                                                                       \
  X(Dedent, "dedent")                                                                                       \
  X(Name, "name")                                                                                           \
  X(Int, "integer")                                                                                         \
  X(Float, "float")                                                                                         \
  X(Str, "string")                                                                                          \
  X(Error, "invalid token")                                                                                 \
  X(FStringStart, "f-string start")                                                                         \
  X(FStringMiddle, "f-string text")                                                                         \
  X(FStringEnd, "f-string end")                                                                             \
  TZ_PUNCT_KINDS(X)                                                                                         \
  TZ_KEYWORD_KINDS(X)

#define TZ_PUNCT_KINDS(X)                                                                                   \
  X(LParen, "(") X(RParen, ")") X(LBracket, "[") X(RBracket, "]") X(LBrace, "{") X(RBrace, "}")             \
  X(Comma, ",") X(Colon, ":") X(Semicolon, ";") X(Dot, ".") X(Ellipsis, "...") X(Arrow, "->")               \
  X(Assign, "=") X(Walrus, ":=") X(At, "@") X(Plus, "+") X(Minus, "-") X(Star, "*") X(Slash, "/")          \
  X(DoubleSlash, "//") X(Percent, "%") X(DoubleStar, "**") X(Tilde, "~") X(Amp, "&") X(Pipe, "|")           \
  X(Caret, "^") X(LShift, "<<") X(RShift, ">>") X(Eq, "==") X(NotEq, "!=") X(Lt, "<") X(Gt, ">")            \
  X(LtE, "<=") X(GtE, ">=") X(PlusEq, "+=") X(MinusEq, "-=") X(StarEq, "*=") X(SlashEq, "/=")               \
  X(DoubleSlashEq, "//=") X(PercentEq, "%=") X(DoubleStarEq, "**=") X(AtEq, "@=") X(AmpEq, "&=")            \
  X(PipeEq, "|=") X(CaretEq, "^=") X(LShiftEq, "<<=") X(RShiftEq, ">>=") X(Bang, "!")

#define TZ_KEYWORD_KINDS(X)                                                                                 \
  X(KwFalse, "False") X(KwNone, "None") X(KwTrue, "True") X(KwAnd, "and") X(KwAs, "as")                     \
  X(KwAssert, "assert") X(KwAsync, "async") X(KwAwait, "await") X(KwBreak, "break") X(KwClass, "class")     \
  X(KwContinue, "continue") X(KwDef, "def") X(KwDel, "del") X(KwElif, "elif") X(KwElse, "else")             \
  X(KwExcept, "except") X(KwFinally, "finally") X(KwFor, "for") X(KwFrom, "from") X(KwGlobal, "global")     \
  X(KwIf, "if") X(KwImport, "import") X(KwIn, "in") X(KwIs, "is") X(KwLambda, "lambda")                     \
  X(KwNonlocal, "nonlocal") X(KwNot, "not") X(KwOr, "or") X(KwPass, "pass") X(KwRaise, "raise")             \
  X(KwReturn, "return") X(KwTry, "try") X(KwWhile, "while") X(KwWith, "with") X(KwYield, "yield")

enum class TokKind : uint8_t {
#define TZ_X(name, spelling) name,
  TZ_TOKEN_KINDS(TZ_X)
#undef TZ_X
};

struct Token {
  TokKind kind = TokKind::EndOfFile;
  SourceLoc loc;
  std::string_view text;  // source spelling (a view into the SourceFile); empty for NEWLINE/INDENT/DEDENT/EOF
  std::string value;      // Str, FStringMiddle: the decoded text (UTF-8, or bytes for b''); Error: the message
  int64_t int_value = 0;
  double float_value = 0.0;
  bool bytes = false;     // Str: a b'' literal
};

// Lexes a whole file. The result always ends with NEWLINE (when the last line had tokens), the DEDENTs that
// close open blocks, and EOF. Never throws for bad input: errors are Error tokens.
std::vector<Token> lex(const SourceFile& file);

// "(" for punctuation, "def" for keywords, "end of line" for the other kinds.
const char* token_kind_spelling(TokKind kind);

// How an error message names a token: "'x'", "'('", "string literal", "end of line", "indent", "end of file".
std::string describe_token(const Token& token);

}  // namespace tz
