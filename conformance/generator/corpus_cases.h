/* One writer per format; each writes corpus/<format>/{valid,invalid}/. */
#ifndef MC_CORPUS_CASES_H
#define MC_CORPUS_CASES_H

/* Creates root/sub (one level); 0 on success. */
int mcg_mkdir(const char *root, const char *sub);

int mcg_write_aem(const char *root);
int mcg_write_semodel(const char *root);
int mcg_write_aamf(const char *root);
int mcg_write_e3d(const char *root);
int mcg_write_nlm(const char *root);

#endif
