-- A schema version 1 store (assay before the verdicts table), for the
-- migration test in tests/unit/test_store.c: the v1 schema as its migration
-- wrote it, and a run with a passed case (rows), a failed one, one left
-- unfinished by a kill, a 'usage' case, an ingested file and an annotation.
PRAGMA application_id = 1634956153;
PRAGMA user_version = 1;
CREATE TABLE runs ( id INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL UNIQUE, suite TEXT, revision TEXT, config_sha256 TEXT, matrix_sha256 TEXT, catalog_sha256 TEXT, host TEXT, launcher TEXT, started TEXT NOT NULL, ended TEXT, exit_code INTEGER CHECK (exit_code BETWEEN 0 AND 5), resumed INTEGER NOT NULL DEFAULT 0);
CREATE TABLE cases ( id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, case_id TEXT NOT NULL, factors TEXT CHECK (factors IS NULL OR json_valid(factors)), outcome TEXT CHECK (outcome IN ('ok','gate-failed','usage','workload-failed',  'no-metrics','infrastructure')), reason TEXT, started TEXT NOT NULL, ended TEXT, duration_s REAL, attempts INTEGER NOT NULL DEFAULT 1, rows INTEGER, artifact_dir TEXT, stdout_log TEXT, stderr_log TEXT, UNIQUE (run, case_id), CHECK ((outcome IS NULL) = (ended IS NULL)));
CREATE TRIGGER cases_finish_once BEFORE UPDATE ON cases WHEN OLD.outcome IS NOT NULL BEGIN SELECT RAISE(ABORT, 'case already finished');
 END;
CREATE TABLE series ( id INTEGER PRIMARY KEY, key TEXT NOT NULL UNIQUE CHECK (length(key) = 64), fields TEXT NOT NULL CHECK (json_valid(fields)), metric TEXT NOT NULL, statistic TEXT NOT NULL, cluster TEXT NOT NULL, scale TEXT NOT NULL, precision TEXT NOT NULL, workload TEXT, unit TEXT NOT NULL, direction TEXT NOT NULL CHECK (direction IN ('higher','lower')));
CREATE TABLE measurements ( id INTEGER PRIMARY KEY, run INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE, "case" INTEGER REFERENCES cases(id) ON DELETE CASCADE, series INTEGER NOT NULL REFERENCES series(id), run_id TEXT, case_id TEXT, value REAL NOT NULL, samples INTEGER NOT NULL CHECK (samples >= 1), revision TEXT, timestamp TEXT NOT NULL);
CREATE INDEX measurements_by_series ON measurements (series, timestamp, id);
CREATE INDEX measurements_by_case ON measurements ("case") WHERE "case" IS NOT NULL;
CREATE TRIGGER measurements_open_case BEFORE INSERT ON measurements WHEN NEW."case" IS NOT NULL AND  (SELECT outcome FROM cases WHERE id = NEW."case") IS NOT NULL BEGIN SELECT RAISE(ABORT, 'case already finished');
 END;
CREATE TABLE annotations ( id INTEGER PRIMARY KEY, series INTEGER NOT NULL REFERENCES series(id) ON DELETE CASCADE, revision TEXT NOT NULL, kind TEXT NOT NULL CHECK (kind IN ('ack','ignore','expected')), note TEXT, created TEXT NOT NULL, UNIQUE (series, revision, kind));
CREATE TABLE ingests ( id INTEGER PRIMARY KEY, run INTEGER NOT NULL UNIQUE REFERENCES runs(id) ON DELETE CASCADE, file TEXT NOT NULL, format TEXT NOT NULL, sha256 TEXT NOT NULL, rows INTEGER NOT NULL);
CREATE INDEX ingests_by_sha256 ON ingests (sha256);
INSERT INTO runs VALUES (1, 'r1', 'train', 'abc123', NULL, NULL, NULL, 'host1', 'local', '2026-11-01T10:00:00Z', '2026-11-01T10:05:00Z', 3, 0);
INSERT INTO runs VALUES (2, 'ingest-1', NULL, NULL, NULL, NULL, NULL, NULL, 'ingest', '2026-11-01T11:00:00Z', '2026-11-01T11:00:00Z', 0, 0);
-- Rows go in before their cases finish, as the v1 store wrote them.
INSERT INTO measurements VALUES (1, 1, 1, 1, NULL, NULL, 7100.5, 8, 'abc123', '2026-11-01T10:01:00Z');
INSERT INTO measurements VALUES (2, 1, 1, 2, NULL, NULL, 9.25, 1, 'abc123', '2026-11-01T10:01:00Z');
INSERT INTO measurements VALUES (3, 2, NULL, 1, 'old-run', 'old-case', 6900.0, 1, 'abc100', '2026-10-01T10:00:00Z');
INSERT INTO cases VALUES (1, 1, 'fp8-mbs4', '{"combo":"fp8-mbs4","values":{"MBS":4}}', 'ok', NULL, '2026-11-01T10:00:00Z', '2026-11-01T10:01:00Z', 60.0, 1, 2, 'out/r1/fp8-mbs4', 'out/r1/fp8-mbs4/stdout.log', 'out/r1/fp8-mbs4/stderr.log');
INSERT INTO cases VALUES (2, 1, 'bf16-mbs2', NULL, 'workload-failed', 'exit code 7', '2026-11-01T10:01:00Z', '2026-11-01T10:02:00Z', 60.0, 1, 0, NULL, NULL, NULL);
INSERT INTO cases VALUES (3, 1, 'bf16-mbs4', NULL, NULL, NULL, '2026-11-01T10:02:00Z', NULL, NULL, 2, NULL, NULL, NULL, NULL);
INSERT INTO cases VALUES (4, 1, 'odd', NULL, 'usage', 'bad input', '2026-11-01T10:03:00Z', '2026-11-01T10:03:01Z', 1.0, 1, 0, NULL, NULL, NULL);
INSERT INTO series VALUES (1, '1111111111111111111111111111111111111111111111111111111111111111', '{"cluster":"c","metric":"tokens_per_gpu","precision":"fp8","scale":"1x8","statistic":"steady_mean","workload":"w"}', 'tokens_per_gpu', 'steady_mean', 'c', '1x8', 'fp8', 'w', 'tokens/s/GPU', 'higher');
INSERT INTO series VALUES (2, '2222222222222222222222222222222222222222222222222222222222222222', '{"cluster":"c","metric":"lm_loss","precision":"fp8","scale":"1x8","statistic":"last","workload":"w"}', 'lm_loss', 'last', 'c', '1x8', 'fp8', 'w', 'nats', 'lower');
INSERT INTO annotations VALUES (1, 1, 'abc123', 'ack', 'new kernel', '2026-11-02T09:00:00Z');
INSERT INTO ingests VALUES (1, 2, 'perf.csv', 'rows', 'deadbeef', 1);
