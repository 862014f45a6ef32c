// The time every service reads instead of `new Date()`, so tests can fix it.
export type Clock = () => Date;
