// The service's C allocator settings: added on Linux when the operator set none of them, left alone
// when they set one, and never on other systems.
import { describe, expect, it } from 'vitest';
import {
  ALLOCATOR_SETTINGS,
  MAIN_SEMI_SPACE_MB,
  allocatorEnvironment,
  youngGenerationArguments,
} from '../../api/platform/memory/allocator-settings.ts';

describe('allocator settings of the service process', () => {
  it('adds both settings on Linux and keeps the rest of the environment', () => {
    expect(allocatorEnvironment({ PORT: '3000' }, 'linux')).toEqual({ PORT: '3000', ...ALLOCATOR_SETTINGS });
  });

  it('keeps the choice of an operator and adds nothing then', () => {
    expect(allocatorEnvironment({ MALLOC_ARENA_MAX: '4' }, 'linux')).toBeUndefined();
    expect(allocatorEnvironment({ MALLOC_MMAP_THRESHOLD_: '1048576' }, 'linux')).toBeUndefined();
  });

  it('does nothing where glibc is not the allocator', () => {
    expect(allocatorEnvironment({}, 'darwin')).toBeUndefined();
    expect(allocatorEnvironment({}, 'win32')).toBeUndefined();
  });

  it("sizes the main thread's young generation unless the operator chose a size", () => {
    expect(youngGenerationArguments(['--enable-source-maps'], undefined, 'linux')).toEqual([`--max-semi-space-size=${MAIN_SEMI_SPACE_MB}`]);
    expect(youngGenerationArguments(['--max-semi-space-size=32'], undefined, 'linux')).toEqual([]);
    expect(youngGenerationArguments([], '--inspect --max_semi_space_size=8', 'linux')).toEqual([]);
  });
});
