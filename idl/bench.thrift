// The rpcmatrix contract (idl/CONTRACT.md) in Thrift IDL.
// Thrift has no 32-bit float: float32 travels as double and the receiver checks it is exactly a float32.
// Timestamps are i64 milliseconds since the Unix epoch, UTC.

namespace java org.rpcmatrix.thrift.gen
namespace py rpcmatrix_thrift_gen

struct Record {
  1: i64 id,
  2: list<string> tags,
  3: list<double> values,
}

struct Book {
  1: string title,
  2: list<string> authors,
  3: double price,
  4: double listPrice,
  5: string publisher,
  6: i32 year,
  7: i32 month,
  8: list<string> keywords,
  9: string isbn,
  10: i32 starRating,
  11: string url,
}

struct Item {
  1: i64 id,
  2: string title,
  3: string description,
  4: string category,
  5: string owner,
  6: i64 created,
  7: i64 updated,
  8: i32 quantity,
  9: double price,
  10: double weight,
}

exception BenchError {
  1: i32 code,
  2: string message,
}

service Bench {
  void ping(),
  bool echoBool(1: bool value),
  i8 echoInt8(1: i8 value),
  i16 echoInt16(1: i16 value),
  i32 echoInt32(1: i32 value),
  i64 echoInt64(1: i64 value),
  double echoFloat32(1: double value),
  double echoFloat64(1: double value),
  string echoString(1: string value),
  binary echoBytes(1: binary value),
  bool isPrime(1: i32 n),
  double average(1: list<double> values),
  list<double> randomDoubles(1: i32 count, 2: i64 seed) throws (1: BenchError error),
  list<double> logTransform(1: list<double> values),
  Record getRecord(1: string key),
  list<Book> searchBooks(1: string query, 2: i32 count) throws (1: BenchError error),
  list<Item> getItems(1: i32 count) throws (1: BenchError error),
  void fail(1: i32 code, 2: string message) throws (1: BenchError error),
}
