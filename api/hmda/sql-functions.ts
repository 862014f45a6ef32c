// The functions custom HMDA SQL may call: an allowlist of plain scalar, aggregate and window
// functions that compute on their arguments only. Anything not named here is refused, so a function
// a later DuckDB adds (or one that reads settings, files, the catalog or variables) is refused until
// someone reads it and adds it. Built-in macros on the list are kept only when what they expand to
// is itself allowed (see allowedMacroBodies in sql-guard.ts): a macro is judged by its body, not its name.

/** Operators the parser turns into function calls (`a + b` is the function "+"). */
const OPERATORS = [
  '+', '-', '*', '/', '//', '%', '**', '^', '&', '|', '<<', '>>', '~', '!__postfix', '@', '||',
  '~~', '!~~', '~~*', '!~~*', '~~~', '^@', '@>', '<@', '&&', '->>', '<->', '<=>',
  'like_escape', 'not_like_escape', 'ilike_escape', 'not_ilike_escape',
];

const NUMERIC = [
  'abs', 'acos', 'acosh', 'add', 'asin', 'asinh', 'atan', 'atan2', 'atanh', 'bit_count', 'cbrt', 'ceil', 'ceiling',
  'cos', 'cosh', 'cot', 'degrees', 'divide', 'even', 'exp', 'factorial', 'fdiv', 'floor', 'fmod', 'gamma', 'gcd',
  'greatest', 'greatest_common_divisor', 'isfinite', 'isinf', 'isnan', 'lcm', 'least', 'least_common_multiple',
  'lgamma', 'ln', 'log', 'log10', 'log2', 'mod', 'multiply', 'nextafter', 'pi', 'pow', 'power', 'radians', 'round',
  'round_even', 'roundbankers', 'sign', 'signbit', 'sin', 'sinh', 'sqrt', 'subtract', 'tan', 'tanh', 'trunc', 'xor',
  'equi_width_bins', 'format_bytes', 'formatReadableDecimalSize', 'formatReadableSize', 'pg_size_pretty',
];

const TEXT = [
  'ascii', 'bar', 'bit_length', 'char_length', 'character_length', 'chr', 'concat', 'concat_ws', 'contains',
  'damerau_levenshtein', 'editdist3', 'ends_with', 'format', 'hamming', 'instr', 'jaccard', 'jaro_similarity',
  'jaro_winkler_similarity', 'lcase', 'left', 'left_grapheme', 'len', 'length', 'length_grapheme', 'levenshtein',
  'lower', 'lpad', 'ltrim', 'md5', 'md5_number', 'mismatches', 'nfc_normalize', 'octet_length', 'ord', 'position',
  'prefix', 'printf', 'regexp_escape', 'regexp_extract', 'regexp_extract_all', 'regexp_full_match', 'regexp_matches',
  'regexp_replace', 'regexp_split_to_array', 'repeat', 'replace', 'reverse', 'right', 'right_grapheme', 'rpad',
  'rtrim', 'sha1', 'sha256', 'split', 'split_part', 'starts_with', 'str_split', 'str_split_regex', 'string_split',
  'string_split_regex', 'string_to_array', 'strip_accents', 'strlen', 'strpos', 'substr', 'substring',
  'substring_grapheme', 'suffix', 'translate', 'trim', 'ucase', 'unicode', 'upper', 'url_decode', 'url_encode',
  'base64', 'to_base64', 'from_base64', 'bin', 'to_binary', 'from_binary', 'hex', 'to_hex', 'from_hex', 'unbin',
  'unhex', 'encode', 'decode', 'to_base', 'hash', 'uuid_extract_timestamp', 'uuid_extract_version',
];

const DATES = [
  'age', 'century', 'current_date', 'date_add', 'date_diff', 'date_part', 'date_sub', 'date_trunc', 'datediff',
  'datepart', 'datesub', 'datetrunc', 'day', 'dayname', 'dayofmonth', 'dayofweek', 'dayofyear', 'days_in_month',
  'decade', 'epoch', 'epoch_ms', 'epoch_ns', 'epoch_us', 'era', 'hour', 'isodow', 'isoyear', 'julian', 'last_day',
  'make_date', 'make_time', 'make_timestamp', 'make_timestamp_ms', 'make_timestamp_ns', 'make_timestamptz',
  'microsecond', 'millennium', 'millisecond', 'minute', 'month', 'monthname', 'nanosecond', 'normalized_interval',
  'quarter', 'second', 'strftime', 'strptime', 'time_bucket', 'timezone', 'timezone_hour', 'timezone_minute',
  'to_centuries', 'to_days', 'to_decades', 'to_hours', 'to_microseconds', 'to_millennia', 'to_milliseconds',
  'to_minutes', 'to_months', 'to_quarters', 'to_seconds', 'to_timestamp', 'to_weeks', 'to_years', 'today',
  'try_strptime', 'week', 'weekday', 'weekofyear', 'year', 'yearweek', 'now', 'get_current_timestamp',
  'get_current_time', 'current_localtime', 'current_localtimestamp', 'transaction_timestamp',
];

const NESTED = [
  'array_append', 'array_cat', 'array_concat', 'array_contains', 'array_distinct', 'array_extract', 'array_filter',
  'array_has', 'array_has_all', 'array_has_any', 'array_indexof', 'array_length', 'array_pop_back', 'array_pop_front',
  'array_position', 'array_prepend', 'array_push_back', 'array_push_front', 'array_reduce', 'array_resize',
  'array_reverse', 'array_reverse_sort', 'array_select', 'array_slice', 'array_sort', 'array_to_string',
  'array_transform', 'array_unique', 'array_value', 'array_where', 'array_zip', 'array_apply', 'cardinality', 'flatten',
  'generate_series', 'range', 'list_append', 'list_apply', 'list_cat', 'list_concat', 'list_contains', 'list_distinct',
  'list_element', 'list_extract', 'list_filter', 'list_grade_up', 'array_grade_up', 'grade_up', 'list_has',
  'list_has_all', 'list_has_any', 'list_indexof', 'list_pack', 'list_position', 'list_prepend', 'list_reduce',
  'list_resize', 'list_reverse', 'list_reverse_sort', 'list_select', 'list_slice', 'list_sort', 'list_transform',
  'list_unique', 'list_value', 'list_where', 'list_zip', 'apply', 'filter', 'reduce', 'element_at', 'map',
  'map_concat', 'map_contains', 'map_contains_entry', 'map_contains_value', 'map_entries', 'map_extract', 'map_extract_value',
  'map_from_entries', 'map_keys', 'map_values', 'struct_concat', 'struct_contains', 'struct_extract',
  'struct_extract_at', 'struct_has', 'struct_indexof', 'struct_insert', 'struct_keys', 'struct_pack',
  'struct_position', 'struct_update', 'struct_values', 'row', 'union_extract', 'union_tag', 'union_value',
  'list_cosine_distance', 'list_cosine_similarity', 'list_distance', 'list_dot_product', 'list_inner_product',
  'list_negative_dot_product', 'list_negative_inner_product', 'array_cosine_distance', 'array_cosine_similarity',
  'array_cross_product', 'array_distance', 'array_dot_product', 'array_inner_product', 'array_negative_dot_product',
  'array_negative_inner_product', 'unnest',
  // The list aggregates name their aggregate in a string: allowed when it names an allowed aggregate.
  'list_aggr', 'list_aggregate', 'array_aggr', 'array_aggregate', 'aggregate',
  'list_any_value', 'list_approx_count_distinct', 'list_avg', 'list_bit_and', 'list_bit_or', 'list_bit_xor',
  'list_bool_and', 'list_bool_or', 'list_count', 'list_entropy', 'list_first', 'list_histogram', 'list_kurtosis',
  'list_kurtosis_pop', 'list_last', 'list_mad', 'list_max', 'list_median', 'list_min', 'list_mode', 'list_product',
  'list_sem', 'list_skewness', 'list_stddev_pop', 'list_stddev_samp', 'list_string_agg', 'list_sum', 'list_var_pop',
  'list_var_samp',
];

const JSON_FUNCTIONS = [
  'json', 'json_array', 'json_array_length', 'json_contains', 'json_exists', 'json_extract', 'json_extract_path',
  'json_extract_path_text', 'json_extract_string', 'json_keys', 'json_merge_patch', 'json_object', 'json_pretty',
  'json_quote', 'json_structure', 'json_transform', 'json_transform_strict', 'json_type', 'json_valid', 'json_value',
  'to_json', 'row_to_json', 'array_to_json', 'from_json', 'from_json_strict', 'json_group_array',
  'json_group_structure',
];

// COALESCE, IFNULL and GROUPING() are operators in the parse, not function calls.
const OTHER_SCALARS = ['nullif', 'typeof', 'pg_typeof', 'constant_or_null'];

/** Aggregates; also the names list_aggr() and the list_* macros may pass in their string argument. */
export const AGGREGATES = [
  'any_value', 'approx_count_distinct', 'approx_quantile', 'approx_top_k', 'arbitrary', 'arg_max', 'arg_max_null',
  'arg_max_nulls_last', 'arg_min', 'arg_min_null', 'arg_min_nulls_last', 'argmax', 'argmin', 'array_agg', 'avg',
  'bit_and', 'bit_or', 'bit_xor', 'bool_and', 'bool_or', 'corr', 'count', 'count_if', 'count_star', 'countif',
  'covar_pop', 'covar_samp', 'entropy', 'favg', 'first', 'fsum', 'geomean', 'geometric_mean', 'group_concat',
  'histogram', 'histogram_exact', 'kahan_sum', 'kurtosis', 'kurtosis_pop', 'last', 'list', 'listagg', 'mad', 'max',
  'max_by', 'mean', 'median', 'min', 'min_by', 'mode', 'product', 'quantile', 'quantile_cont', 'quantile_disc',
  'regr_avgx', 'regr_avgy', 'regr_count', 'regr_intercept', 'regr_r2', 'regr_slope', 'regr_sxx', 'regr_sxy',
  'regr_syy', 'reservoir_quantile', 'sem', 'skewness', 'stddev', 'stddev_pop', 'stddev_samp', 'string_agg', 'sum',
  'sumkahan', 'var_pop', 'var_samp', 'variance', 'weighted_avg', 'wavg',
];

const WINDOW_FUNCTIONS = [
  'cume_dist', 'dense_rank', 'fill', 'first_value', 'lag', 'last_value', 'lead', 'nth_value', 'ntile', 'percent_rank',
  'rank', 'rank_dense', 'row_number',
];

/** Every function name a custom query may call (lower case), before the macro check. */
export const ALLOWED_FUNCTIONS: ReadonlySet<string> = new Set(
  [...OPERATORS, ...NUMERIC, ...TEXT, ...DATES, ...NESTED, ...JSON_FUNCTIONS, ...OTHER_SCALARS, ...AGGREGATES, ...WINDOW_FUNCTIONS].map((name) =>
    name.toLowerCase(),
  ),
);

/** Functions whose second argument names an aggregate to run; it must be a constant naming an allowed one. */
export const AGGREGATE_BY_NAME: ReadonlySet<string> = new Set(['list_aggr', 'list_aggregate', 'array_aggr', 'array_aggregate', 'aggregate']);

/** Table functions a query may read from (FROM range(10)); every other one is refused. */
export const ALLOWED_TABLE_FUNCTIONS: ReadonlySet<string> = new Set(['range', 'generate_series', 'unnest']);
