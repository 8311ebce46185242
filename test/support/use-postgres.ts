// setupFiles of the `e2e-postgres` project: the database-backed suites run on the server.
process.env.CB_TEST_ENGINE = 'postgres';
