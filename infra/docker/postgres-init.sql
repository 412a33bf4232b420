-- Run once by the postgres image on an empty data dir (docker-compose.yml); POSTGRES_DB creates `claims`.
CREATE DATABASE claims_test;
