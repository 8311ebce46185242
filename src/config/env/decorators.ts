import { applyDecorators } from '@nestjs/common';
import { Transform } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsUrl, Max, Min } from 'class-validator';

/*
 * The decorators of the env classes. Every variable arrives as a string or not at all, and
 * every variable is optional: an unset one keeps the default of whoever owns the setting.
 */

/** `''` and unset are both "not given"; anything else becomes a number (validated after). */
const toOptionalNumber = ({ value }: { value: unknown }) =>
  value === undefined || value === '' ? undefined : Number(value);

/** `FOO=` in an env file means unset, not "the empty string". */
export const emptyAsUndefined = ({ value }: { value: unknown }) =>
  value === '' ? undefined : value;

/** `true`/`1` and `false`/`0` in any case; `undefined` for anything else. */
export function parseEnvBoolean(value: unknown): boolean | undefined {
  const text = typeof value === 'string' ? value.trim().toLowerCase() : value;
  return text === 'true' || text === '1'
    ? true
    : text === 'false' || text === '0'
      ? false
      : undefined;
}

/**
 * Applies decorators in the order given, which is the order they validate in (class-validator
 * checks a property's constraints as they were registered). With `stopAtFirstError` that order
 * picks the message: `PORT=abc` must read "an integer", not a bound that NaN also fails.
 */
const stack = (...decorators: PropertyDecorator[]) => applyDecorators(...decorators);

/** An integer in [min, max]. */
export const EnvInt = (min: number, max: number) =>
  stack(IsOptional(), Transform(toOptionalNumber), IsInt(), Min(min), Max(max));

/** A number in [min, max]. */
export const EnvNumber = (min: number, max: number) =>
  stack(IsOptional(), Transform(toOptionalNumber), IsNumber(), Min(min), Max(max));

/** One of `values` (a provider name, a mode). */
export const EnvOneOf = (values: readonly string[]) => stack(IsOptional(), IsIn(values));

/**
 * A URL with one of `protocols`, written out: a bare `cache:6379` would pass as a host and
 * port, then fail in the client. Cluster-internal hosts have no TLD. The message names the
 * schemes, the usual mistake being a bare `host:port` or another engine's URL.
 */
export const EnvUrl = (protocols = ['http', 'https']) =>
  stack(
    IsOptional(),
    Transform(emptyAsUndefined),
    IsUrl(
      { require_tld: false, require_protocol: true, protocols },
      { message: `$property must be a ${protocols.map((p) => `${p}://`).join(' or ')} URL` },
    ),
  );

/** A flag: true/false/1/0 in any case; anything else is refused by name. */
export const EnvBoolean = () =>
  stack(
    IsOptional(),
    Transform(({ value }: { value: unknown }) =>
      value === '' ? undefined : (parseEnvBoolean(value) ?? value),
    ),
    IsBoolean({ message: '$property must be true, false, 1 or 0' }),
  );
