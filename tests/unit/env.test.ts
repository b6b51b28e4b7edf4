// The environment, validated at start-up (api/env.ts): the database and the trust-and-safety variables.
import { describe, expect, it } from 'vitest';
import { databaseLocation, describeDatabase } from '../../api/db/database.ts';
import { EnvError, parseEnv } from '../../api/env.ts';

describe('trust-and-safety environment', () => {
  it('holds first comments by default, and takes 0 or 1', () => {
    expect(parseEnv({}).MODERATION_HOLD_FIRST).toBe(true);
    expect(parseEnv({ MODERATION_HOLD_FIRST: '0' }).MODERATION_HOLD_FIRST).toBe(false);
    expect(parseEnv({ MODERATION_HOLD_FIRST: '1' }).MODERATION_HOLD_FIRST).toBe(true);
    expect(() => parseEnv({ MODERATION_HOLD_FIRST: 'yes' })).toThrow(/MODERATION_HOLD_FIRST: must be 0 or 1/);
  });

  it('takes an optional escalation URL, and names a bad one', () => {
    expect(parseEnv({}).SAFETY_ESCALATION_URL).toBeUndefined();
    expect(parseEnv({ SAFETY_ESCALATION_URL: '' }).SAFETY_ESCALATION_URL).toBeUndefined();
    expect(parseEnv({ SAFETY_ESCALATION_URL: 'https://hooks.example/safety' }).SAFETY_ESCALATION_URL).toBe(
      'https://hooks.example/safety',
    );
    expect(() => parseEnv({ SAFETY_ESCALATION_URL: 'not a url' })).toThrow(EnvError);
    expect(() => parseEnv({ SAFETY_ESCALATION_URL: 'not a url' })).toThrow(/SAFETY_ESCALATION_URL/);
  });

  it('limits reports to 5 a minute unless told otherwise', () => {
    expect(parseEnv({}).RATE_LIMIT_REPORTS_PER_MINUTE).toBe(5);
    expect(parseEnv({ RATE_LIMIT_REPORTS_PER_MINUTE: '20' }).RATE_LIMIT_REPORTS_PER_MINUTE).toBe(20);
  });
});

describe('mail environment', () => {
  it('keeps mail in the outbox without SMTP_URL, and takes smtp:// and smtps:// addresses', () => {
    expect(parseEnv({}).SMTP_URL).toBeUndefined();
    expect(parseEnv({ SMTP_URL: '' }).SMTP_URL).toBeUndefined();
    expect(parseEnv({ SMTP_URL: 'smtp://127.0.0.1:2525' }).SMTP_URL).toBe('smtp://127.0.0.1:2525');
    expect(parseEnv({ SMTP_URL: 'smtps://user:pass@mail.example:465' }).SMTP_URL).toBe(
      'smtps://user:pass@mail.example:465',
    );
    expect(() => parseEnv({ SMTP_URL: 'https://mail.example' })).toThrow(
      /SMTP_URL: must start with smtp:\/\/ or smtps:\/\//,
    );
    expect(() => parseEnv({ SMTP_URL: 'not a url' })).toThrow(/SMTP_URL/);
  });

  it('sends from Nestling unless MAIL_FROM says otherwise', () => {
    expect(parseEnv({}).MAIL_FROM).toBe('Nestling <no-reply@nestling.example>');
    expect(parseEnv({ MAIL_FROM: 'Team <team@example.com>' }).MAIL_FROM).toBe('Team <team@example.com>');
  });
});

describe('the database', () => {
  it('is the SQLite file unless DATABASE_URL names a PostgreSQL server', () => {
    expect(databaseLocation(parseEnv({}))).toBe('./data/nestling.db');
    expect(databaseLocation(parseEnv({ DATABASE_PATH: '/srv/n.db', DATABASE_URL: '' }))).toBe('/srv/n.db');
    const url = 'postgres://nestling:secret@db.internal:5432/nestling';
    expect(databaseLocation(parseEnv({ DATABASE_PATH: '/srv/n.db', DATABASE_URL: url }))).toBe(url);
    expect(parseEnv({ DATABASE_URL: 'postgresql://127.0.0.1/nestling' }).DATABASE_URL).toBe(
      'postgresql://127.0.0.1/nestling',
    );
    expect(() => parseEnv({ DATABASE_URL: 'mysql://127.0.0.1/nestling' })).toThrow(
      /DATABASE_URL: must be a postgres:\/\/ or postgresql:\/\/ URL/,
    );
  });

  it('is named in messages without its password', () => {
    expect(describeDatabase('postgres://nestling:s3cret@db.internal:5432/nestling')).toBe(
      'PostgreSQL at postgres://nestling:***@db.internal:5432/nestling',
    );
    expect(describeDatabase('postgres://127.0.0.1/nestling')).toBe(
      'PostgreSQL at postgres://127.0.0.1/nestling',
    );
    expect(describeDatabase('./data/nestling.db')).toBe('./data/nestling.db');
  });
});
