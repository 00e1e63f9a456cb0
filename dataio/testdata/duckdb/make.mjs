// make.mjs writes the Parquet files of this directory with DuckDB, an
// implementation other than the one gendisc reads with, for TestDuckDB:
//
//	cd scratch && npm install @duckdb/node-api && cp .../make.mjs .
//	cd .../data/testdata/duckdb && node scratch/make.mjs
//
// types.parquet has every column type gendisc reads, nulls, dictionary
// pages (DuckDB writes strings dictionary-encoded) and three row groups
// (ROW_GROUP_SIZE 2048 on 5,000 rows: 10 written out, then rows made by
// formulas that TestDuckDB repeats), zstd-compressed; refused.parquet has
// a date, a timestamp, a decimal, a list and a struct beside a number;
// chunks.parquet is 2,500 rows in two row groups, snappy-compressed;
// lz4.parquet is types.parquet's rows and those of its formulas up to
// 10,000, LZ4_RAW-compressed in DuckDB's default row groups (a file that
// parquet-go alone does not read: see data/parquet_lz4.go);
// logical.parquet is 400 rows by formulas that TestDuckDBLogical repeats
// of DATE, TIME, TIMESTAMP in milli-, micro- and nanoseconds with and
// without a time zone, and DECIMAL(9,2), (18,4) and (38,6) (INT32, INT64
// and FIXED_LEN_BYTE_ARRAY), with nulls, before and after 1970.
import { DuckDBInstance } from '@duckdb/node-api';

const db = await DuckDBInstance.create(':memory:');
const c = await db.connect();
await c.run(`
CREATE TABLE t AS SELECT * FROM (VALUES
  (1.5::DOUBLE, 1.25::FLOAT, 7::INTEGER, 10000000000::BIGINT, 3::TINYINT, 200::UTINYINT, true, 'red', 'the quick brown fox jumps', 'a'),
  (NULL, -0.5::FLOAT, NULL, -2::BIGINT, NULL, 1::UTINYINT, false, 'green', 'over the lazy dog again', 'b'),
  (2.25, NULL, 9, 5, 1, NULL, NULL, NULL, 'a third sentence of text', 'a'),
  (-1e300, 0.1::FLOAT, -3, 0, 2, 7, true, 'red', NULL, 'b'),
  (0.0, 3.0::FLOAT, 0, 1, 0, 8, false, 'blue', 'yet another line of words', 'a'),
  (4.0, 2.5::FLOAT, 2, 2, 3, 9, true, 'green', 'words words and more words', 'b'),
  (5.5, 1.0::FLOAT, 1, 3, 4, 10, false, 'red', 'some more text to read here', 'a'),
  (6.0, 0.0::FLOAT, 5, 4, 5, 11, true, 'blue', 'the last few lines of text', 'b'),
  (7.5, 4.5::FLOAT, 6, 6, 6, 12, NULL, 'red', 'almost done with the rows', 'a'),
  (8.0, 5.0::FLOAT, 8, 7, 7, 13, true, 'green', 'and this is the tenth one', 'b')
) v(dbl, flt, i32, i64, i8, u8, flag, color, note, class)`);
await c.run(`INSERT INTO t SELECT
  CASE WHEN i % 11 = 0 THEN NULL ELSE i::DOUBLE / 4 END,
  ((i % 8)::FLOAT / 2)::FLOAT,
  CASE WHEN i % 13 = 0 THEN NULL ELSE i::INTEGER END,
  i::BIGINT * 1000000007,
  (i % 100)::TINYINT,
  (i % 256)::UTINYINT,
  CASE WHEN i % 17 = 0 THEN NULL ELSE i % 2 = 0 END,
  CASE WHEN i % 19 = 0 THEN NULL ELSE ['red', 'green', 'blue'][i % 3 + 1] END,
  'row number ' || i || ' of the text',
  CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END
  FROM range(10, 5000) r(i) ORDER BY i`);
await c.run(`COPY (SELECT * FROM t) TO 'types.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 2048, COMPRESSION ZSTD, PRESERVE_ORDER true)`);
await c.run(`COPY (SELECT 1.0::DOUBLE AS x, DATE '2024-01-02' AS day, TIMESTAMP '2024-01-02 03:04:05' AS ts,
  12.34::DECIMAL(6,2) AS price, [1, 2] AS list, {'a': 1} AS rec, 'y' AS class)
  TO 'refused.parquet' (FORMAT PARQUET)`);
await c.run(`COPY (SELECT i::DOUBLE / 8 AS x, (i % 7)::INTEGER AS k, CASE WHEN i % 3 = 0 THEN 'p' ELSE 'q' END AS class
  FROM range(2500) r(i)) TO 'chunks.parquet' (FORMAT PARQUET, ROW_GROUP_SIZE 1000, COMPRESSION SNAPPY)`);
await c.run(`INSERT INTO t SELECT
  CASE WHEN i % 11 = 0 THEN NULL ELSE i::DOUBLE / 4 END,
  ((i % 8)::FLOAT / 2)::FLOAT,
  CASE WHEN i % 13 = 0 THEN NULL ELSE i::INTEGER END,
  i::BIGINT * 1000000007,
  (i % 100)::TINYINT,
  (i % 256)::UTINYINT,
  CASE WHEN i % 17 = 0 THEN NULL ELSE i % 2 = 0 END,
  CASE WHEN i % 19 = 0 THEN NULL ELSE ['red', 'green', 'blue'][i % 3 + 1] END,
  'row number ' || i || ' of the text',
  CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END
  FROM range(5000, 10000) r(i) ORDER BY i`);
await c.run(`COPY (SELECT * FROM t) TO 'lz4.parquet' (FORMAT PARQUET, COMPRESSION LZ4_RAW, PRESERVE_ORDER true)`);
await c.run(`SET TimeZone = 'UTC'`);
await c.run(`COPY (SELECT
  CASE WHEN i % 7 = 0 THEN NULL ELSE DATE '1970-01-01' + ((i - 200) * 97)::INTEGER END AS day,
  CASE WHEN i % 11 = 0 THEN NULL ELSE '00:00:00'::TIME + to_microseconds((i * 1234567891) % 86400000000) END AS tod,
  CASE WHEN i % 13 = 0 THEN NULL ELSE make_timestamp(((i - 200) * 12345678901 + i) * 1000)::TIMESTAMP_MS END AS ts_ms,
  CASE WHEN i % 5 = 0 THEN NULL ELSE make_timestamp((i - 200) * 12345678901234 + i * 7) END AS ts_us,
  CASE WHEN i % 17 = 0 THEN NULL ELSE make_timestamp_ns(((i - 200) * 12345678901234 + i * 7) * 1000 + i * 13 % 1000) END AS ts_ns,
  CASE WHEN i % 19 = 0 THEN NULL ELSE make_timestamp((i - 200) * 12345678901234 + i * 7)::TIMESTAMPTZ END AS ts_tz,
  CASE WHEN i % 23 = 0 THEN NULL ELSE (((i - 200) * 49999 % 10000000)::VARCHAR || '.' || lpad((i * 7 % 100)::VARCHAR, 2, '0'))::DECIMAL(9,2) END AS dec9,
  CASE WHEN i % 29 = 0 THEN NULL ELSE (((i - 200) * 123456789012)::VARCHAR || '.' || lpad((i * 37 % 10000)::VARCHAR, 4, '0'))::DECIMAL(18,4) END AS dec18,
  CASE WHEN i % 31 = 0 THEN NULL ELSE (((i - 200)::HUGEINT * 123456789012345678901)::VARCHAR || '.' || lpad((i * 1234567 % 1000000)::VARCHAR, 6, '0'))::DECIMAL(38,6) END AS dec38,
  CASE WHEN i % 2 = 0 THEN 'a' ELSE 'b' END AS class
  FROM range(400) r(i) ORDER BY i) TO 'logical.parquet' (FORMAT PARQUET, PRESERVE_ORDER true)`);
