/* Layout-1 records: written before drivers existed, by this driver's PMU
 * alone. Their platform fields are this driver's facts; their events'
 * units (0 CBo, 1 ARB, 2 fixed, 3 IMC) are its unit indexes. */
#include "skl.h"

#include "../record.h"

_Static_assert(SKL_UNIT_CBO == 0 && SKL_UNIT_ARB == 1 && SKL_UNIT_FIXED == 2 && SKL_UNIT_IMC == 3,
	       "layout-1 records store these unit numbers");

void skl_rec_v1(const void *rec, struct pmu_present *p, struct pmu_use *use);

void skl_rec_v1(const void *rec, struct pmu_present *p, struct pmu_use *use)
{
	const struct rec *r = rec;

	p->probed = r->msrs_probed ? 1u << SKL_UNIT_CBO | 1u << SKL_UNIT_ARB | 1u << SKL_UNIT_FIXED : 0;
	p->probed |= 1u << SKL_UNIT_IMC; /* layout 1 always read the host bridge */
	p->boxes[SKL_UNIT_CBO] = r->cbo_count;
	p->found[SKL_UNIT_CBO] = r->ncbo_found ? r->ncbo_found : r->cbo_count;
	p->facts[SKL_FACT_CBO_CONFIG_ST] = r->cbo_config_st;
	p->facts[SKL_FACT_CBO_CONFIG] = r->cbo_config_raw;
	p->facts[SKL_FACT_HB_ID] = (uint32_t)r->hb_device << 16 | r->hb_vendor;
	p->facts[SKL_FACT_MCHBAR_RAW] = r->mchbar_raw;
	p->facts[SKL_FACT_HB_ST] = r->host_bridge_st;
	p->facts[SKL_FACT_MCHBAR_ST] = r->mchbar_st;
	p->facts[SKL_FACT_CORES] = r->cores;
	p->facts[SKL_FACT_PHYS_BITS] = r->phys_bits;
	*use = (struct pmu_use){ .known = r->in_use_known, .in_use = r->in_use, .global_ctrl = r->global_ctrl,
				 .selects_checked = r->selects_checked };
	use->nbusy = r->nbusy < PMU_MAX_BUSY ? r->nbusy : PMU_MAX_BUSY;
	for (uint32_t i = 0; i < use->nbusy; i++)
		use->busy[i] = (struct pmu_busy){ pmu_msr(r->busy[i].msr), r->busy[i].value };
}
