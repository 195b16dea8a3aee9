-- Run once by the postgres image on an empty volume: one database per service (libs/config units.ts).
CREATE DATABASE pp_identity;
CREATE DATABASE pp_sessions;
CREATE DATABASE pp_stories;
CREATE DATABASE pp_ai;
CREATE DATABASE pp_integrations;
CREATE DATABASE pp_webhooks;
