/// The triage index's tables (`Documentation/TriageIndex.md` explains each column and has example
/// questions). Natural keys only (a bundle's report file name, which is unique in a fleet, and
/// positions), no row ids: the same fleet gives the
/// same rows whether it was analysed in one run, in shards that were merged, or incrementally.
enum TriageIndexSchema {
    /// 2: bundles gained `verdict` and `could_not_judge` (issue 29); 6: sessions say which of
    /// their KPIs are lower bounds (a console's "at least" counts).
    static let version = 6

    static let statements = [
        """
        CREATE TABLE meta (
          key TEXT PRIMARY KEY NOT NULL,
          value TEXT NOT NULL)
        """,
        """
        CREATE TABLE bundles (
          file TEXT PRIMARY KEY NOT NULL,
          name TEXT NOT NULL,
          content_hash TEXT NOT NULL,
          analyzer TEXT NOT NULL,
          error TEXT,
          skipped INTEGER NOT NULL,
          incomplete TEXT,
          verdict TEXT,
          could_not_judge TEXT,
          input_problems INTEGER NOT NULL,
          session_count INTEGER NOT NULL,
          metadata_key TEXT NOT NULL DEFAULT '')
        """,
        "CREATE INDEX bundles_by_content ON bundles(content_hash, analyzer)",
        """
        CREATE TABLE sessions (
          bundle TEXT NOT NULL REFERENCES bundles(file) ON DELETE CASCADE ON UPDATE CASCADE,
          ordinal INTEGER NOT NULL,
          session_id TEXT NOT NULL,
          start_time TEXT,
          end_time TEXT,
          start_seconds REAL,
          end_seconds REAL,
          utc INTEGER NOT NULL,
          startup_time REAL,
          stall_count INTEGER,
          stall_duration REAL,
          rebuffer_ratio REAL,
          variant_switch_count INTEGER,
          downswitch_count INTEGER,
          error_count INTEGER,
          fatal_error INTEGER,
          time_weighted_average_bitrate REAL,
          playing_time REAL,
          kpi_provenance TEXT NOT NULL,
          sources TEXT NOT NULL,
          user_agent TEXT,
          device TEXT,
          os_version TEXT,
          app TEXT,
          app_version TEXT,
          worst_severity TEXT,
          top_rule_id TEXT,
          top_finding TEXT,
          serious_findings INTEGER NOT NULL,
          played INTEGER NOT NULL,
          stall_duration_is_lower_bound INTEGER NOT NULL,
          error_count_is_lower_bound INTEGER NOT NULL,
          PRIMARY KEY (bundle, ordinal))
        """,
        """
        CREATE TABLE findings (
          bundle TEXT NOT NULL,
          session_ordinal INTEGER NOT NULL,
          ordinal INTEGER NOT NULL,
          session_id TEXT NOT NULL,
          rule_id TEXT NOT NULL,
          severity TEXT NOT NULL,
          severity_rank INTEGER NOT NULL,
          title TEXT NOT NULL,
          start_time TEXT,
          end_time TEXT,
          start_seconds REAL,
          end_seconds REAL,
          problem_key TEXT NOT NULL,
          cause TEXT,
          host TEXT,
          status TEXT,
          asset TEXT,
          variant INTEGER,
          evidence_count INTEGER NOT NULL,
          pop TEXT,
          cache TEXT,
          problem_rule TEXT NOT NULL,
          own_key TEXT NOT NULL,
          PRIMARY KEY (bundle, session_ordinal, ordinal),
          FOREIGN KEY (bundle, session_ordinal) REFERENCES sessions(bundle, ordinal)
            ON DELETE CASCADE ON UPDATE CASCADE)
        """,
        "CREATE INDEX findings_by_problem ON findings(problem_key)",
        """
        CREATE TABLE evidence (
          bundle TEXT NOT NULL,
          session_ordinal INTEGER NOT NULL,
          finding_ordinal INTEGER NOT NULL,
          ordinal INTEGER NOT NULL,
          file TEXT NOT NULL,
          line INTEGER NOT NULL,
          time TEXT,
          summary TEXT NOT NULL,
          PRIMARY KEY (bundle, session_ordinal, finding_ordinal, ordinal),
          FOREIGN KEY (bundle, session_ordinal, finding_ordinal)
            REFERENCES findings(bundle, session_ordinal, ordinal) ON DELETE CASCADE ON UPDATE CASCADE)
        """,
        """
        CREATE TABLE failed_requests (
          bundle TEXT NOT NULL,
          session_ordinal INTEGER NOT NULL,
          host TEXT NOT NULL,
          status TEXT NOT NULL,
          count INTEGER NOT NULL,
          PRIMARY KEY (bundle, session_ordinal, host, status),
          FOREIGN KEY (bundle, session_ordinal) REFERENCES sessions(bundle, ordinal)
            ON DELETE CASCADE ON UPDATE CASCADE)
        """,
        """
        CREATE TABLE problems (
          problem_key TEXT PRIMARY KEY NOT NULL,
          rank INTEGER NOT NULL,
          rule_id TEXT NOT NULL,
          cause TEXT,
          host TEXT,
          status TEXT,
          asset TEXT,
          variant INTEGER,
          worst_severity TEXT NOT NULL,
          sessions INTEGER NOT NULL,
          share REAL NOT NULL,
          bundles INTEGER NOT NULL,
          findings INTEGER NOT NULL,
          first_seen TEXT,
          last_seen TEXT,
          median_startup_affected REAL,
          median_startup_unaffected REAL,
          median_rebuffer_affected REAL,
          median_rebuffer_unaffected REAL,
          pop TEXT,
          cache TEXT,
          symptoms TEXT NOT NULL,
          assets INTEGER NOT NULL,
          variants TEXT NOT NULL,
          played_sessions INTEGER NOT NULL)
        """,
        """
        CREATE TABLE problem_examples (
          problem_key TEXT NOT NULL REFERENCES problems(problem_key) ON DELETE CASCADE,
          rank INTEGER NOT NULL,
          bundle TEXT NOT NULL,
          session_id TEXT NOT NULL,
          evidence_count INTEGER NOT NULL,
          PRIMARY KEY (problem_key, rank))
        """,
    ]

    /// Tables that hold what bundles gave (copied by a merge); `problems` and `problem_examples`
    /// are derived from them and recomputed.
    static let bundleTables = ["bundles", "sessions", "findings", "evidence", "failed_requests"]
}
