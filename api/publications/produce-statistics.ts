// /data/statistics/all.json and one file per category: the `all=true` answers of GET /statistics.
import { CATEGORIES } from '../statistics/contract.ts';
import { STATISTICS_DATASET } from '../statistics/dataset.ts';
import { JSON_TYPE, type Publication } from './types.ts';

export const statisticsPublication: Publication = {
  name: 'statistics',
  datasets: [STATISTICS_DATASET],
  async *produce(services) {
    yield {
      path: 'statistics/all.json',
      body: await services.statistics.answerJson({ all: true }),
      contentType: JSON_TYPE,
      rest: '/statistics?all=true',
    };
    const stats = await services.statistics.list();
    for (const category of CATEGORIES) {
      // A category without any statistic is a 404 on REST: no file either.
      if (!stats.some((stat) => stat.category === category)) continue;
      yield {
        path: `statistics/${category}.json`,
        body: await services.statistics.answerJson({ category, all: true }),
        contentType: JSON_TYPE,
        rest: `/statistics?category=${category}&all=true`,
      };
    }
  },
};
