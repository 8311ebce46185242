import { scrubExportedSpans } from './span-scrubbing';
import { TelemetryIds } from './telemetry-ids';

/** Its own file: no SDK was ever started in this module registry. */
describe('scrubExportedSpans without a span pipeline it knows', () => {
  it('throws (the boot fails) rather than let spans out unscrubbed', () => {
    expect(() => scrubExportedSpans(new TelemetryIds('k'.repeat(32)))).toThrow(
      /refusing to export/,
    );
  });
});
